-- N times in any D consecutive days (a rolling window, as Loop Habit Tracker's "N times in D days").
return {
  description = "At least N completed days in the D days ending on each day (times: 1…D, days: 1…366), judged day by day.",
  params = {},
  schema = {
    times = { type = "integer", minimum = 1, maximum = 366, description = "Completed days needed in the window (at most days)", required = true, example = 2 },
    days = { type = "integer", minimum = 1, maximum = 366, description = "The window, in days ending on each day", required = true, example = 5 },
  },
  examples = {
    { day = "2026-10-05", due = true, params = { times = 2, days = 5 } },
  },
  validate = function(params)
    if math.type(params.days) ~= "integer" or params.days < 1 or params.days > 366 then
      error("days must be a whole number from 1 to 366 (got " .. tostring(params.days) .. ")", 0)
    end
    if math.type(params.times) ~= "integer" or params.times < 1 or params.times > params.days then
      error("times must be a whole number from 1 to days (got " .. tostring(params.times) .. ")", 0)
    end
  end,
  quota = function(params)
    return { times = params.times, per = params.days }
  end,
  isDue = function(day, params, habit)
    return true
  end,
}
