-- Any N days of each week (Monday to Sunday, or Sunday to Saturday); a week with N completed days is met.
return {
  description = "Any N days of each week (times: 1…7), Monday to Sunday or from Sunday (weekStart); streaks and rates count weeks.",
  params = { weekStart = "mon" },
  schema = {
    times = { type = "integer", minimum = 1, maximum = 7, description = "Completed days needed in each week", required = true, example = 3 },
    weekStart = { type = "string", enum = { "mon", "sun" }, description = "The day each week begins on: mon or sun" },
  },
  examples = {
    { day = "2026-10-05", due = true, params = { times = 3 } },
    { day = "2026-10-11", due = true, params = { times = 1 } },
    { day = "2026-10-11", due = true, params = { times = 2, weekStart = "sun" } },
  },
  validate = function(params)
    if math.type(params.times) ~= "integer" or params.times < 1 or params.times > 7 then
      error("times must be a whole number from 1 to 7 (got " .. tostring(params.times) .. ")", 0)
    end
  end,
  quota = function(params)
    return { times = params.times, per = "week", weekStart = params.weekStart }
  end,
  isDue = function(day, params, habit)
    return true
  end,
}
