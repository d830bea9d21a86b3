-- Payday: the 25th, or the Friday before it when the 25th falls on a weekend.
return {
  description = "The 25th of each month, or the Friday before when it falls on a Saturday or Sunday.",
  params = { day = 25 },
  examples = {
    { day = "2026-09-25", due = true },   -- a Friday
    { day = "2026-10-23", due = true },   -- the 25th is a Sunday
    { day = "2026-10-25", due = false },
    { day = "2027-09-24", due = true },   -- the 25th is a Saturday
    { day = "2026-11-25", due = true },   -- a Wednesday
  },
  validate = function(params)
    if math.type(params.day) ~= "integer" or params.day < 3 or params.day > 28 then
      error("day must be a whole number from 3 to 28", 0)
    end
  end,
  isDue = function(day, params, habit)
    -- weekday of the target day in this month, from today's weekday
    local target = params.day
    local offset = target - day.day
    local weekday = (day.weekday - 1 + offset) % 7 + 1
    if weekday == 6 then target = target - 1 elseif weekday == 7 then target = target - 2 end
    return day.day == target
  end,
}
