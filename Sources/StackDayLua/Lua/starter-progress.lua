-- A progress rule: how far a day is toward its goal, from 0 to 1 (1 = done). `total` is the sum of
-- the day's records in the habit's unit, `goal` the habit's goal.
-- Try it: stackday policy test NAME, then stackday policy simulate NAME --habit HABIT
return {
  description = "Half the goal is enough on weekends.",
  params = { weekendShare = 0.5 },
  schema = {
    weekendShare = { type = "number", minimum = 0.01, maximum = 1, description = "The share of the goal a weekend day needs" },
  },
  examples = {
    { day = "2026-10-05", total = 4, goal = 8, progress = 0.5 },  -- a Monday: half done
    { day = "2026-10-10", total = 4, goal = 8, progress = 1 },    -- a Saturday: done
    { total = 8, goal = 8, progress = 1 },                        -- no day: the goal met
  },
  tests = {
    { name = "more than the goal counts as done", day = "2026-10-05", total = 12, goal = 8, progress = 1 },
  },
  progress = function(total, goal, params, day)
    local needed = goal
    if day.weekday >= 6 then needed = goal * params.weekendShare end
    trace("needed", needed, "of", goal)
    return math.min(total / needed, 1)
  end,
}
