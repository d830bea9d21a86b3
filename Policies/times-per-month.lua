-- Any N days of each calendar month; a month with N completed days is met.
return {
  description = "Any N days of each calendar month (times: 1…31); streaks and rates count months.",
  params = {},
  schema = { times = { type = "integer", minimum = 1, maximum = 31, description = "Completed days needed in each calendar month", required = true, example = 10 } },
  examples = {
    { day = "2026-02-28", due = true, params = { times = 4 } },
  },
  validate = function(params)
    if math.type(params.times) ~= "integer" or params.times < 1 or params.times > 31 then
      error("times must be a whole number from 1 to 31 (got " .. tostring(params.times) .. ")", 0)
    end
  end,
  quota = function(params)
    return { times = params.times, per = "month" }
  end,
  isDue = function(day, params, habit)
    return true
  end,
}
