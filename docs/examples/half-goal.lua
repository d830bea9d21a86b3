-- Progress that counts a day as done at half the goal on weekends.
return {
  description = "Weekdays need the full goal; Saturdays and Sundays need half of it.",
  params = {},
  examples = {
    { day = "2026-10-05", total = 4, goal = 8, progress = 0.5 },  -- Monday
    { day = "2026-10-10", total = 4, goal = 8, progress = 1 },    -- Saturday
  },
  progress = function(total, goal, params, day)
    local needed = goal
    if day.weekday >= 6 then needed = goal / 2 end
    return math.min(total / needed, 1)
  end,
}
