-- Any N days of each Monday-to-Sunday week; a week with N completed days is met.
return {
  description = "Any N days of each Monday–Sunday week (times: 1…7); streaks and rates count weeks.",
  params = {},
  schema = { times = { type = "integer", minimum = 1, maximum = 7, description = "Completed days needed in each Monday-to-Sunday week", required = true, example = 3 } },
  examples = {
    { day = "2026-10-05", due = true, params = { times = 3 } },
    { day = "2026-10-11", due = true, params = { times = 1 } },
  },
  validate = function(params)
    if math.type(params.times) ~= "integer" or params.times < 1 or params.times > 7 then
      error("times must be a whole number from 1 to 7 (got " .. tostring(params.times) .. ")", 0)
    end
  end,
  quota = function(params)
    return { times = params.times, per = "week" }
  end,
  isDue = function(day, params, habit)
    return true
  end,
}
