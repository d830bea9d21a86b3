-- One day of every month; in shorter months the day is skipped or moved to the last day.
return {
  description = "Day N of every month (day: 1…31); shortMonth = \"skip\" or \"last\" decides months without that day.",
  params = { shortMonth = "skip" },
  schema = {
    day = { type = "integer", minimum = 1, maximum = 31, description = "The day of the month", required = true, example = 15 },
    shortMonth = { type = "string", enum = { "skip", "last" }, description = "In months without that day: skip the month, or take its last day" },
  },
  examples = {
    { day = "2026-10-15", due = true, params = { day = 15 } },
    { day = "2026-10-16", due = false, params = { day = 15 } },
    { day = "2026-11-30", due = false, params = { day = 31 } },
    { day = "2026-11-30", due = true, params = { day = 31, shortMonth = "last" } },
    { day = "2023-02-28", due = true, params = { day = 30, shortMonth = "last" } },
    { day = "2024-02-28", due = false, params = { day = 30, shortMonth = "last" } },
    { day = "2024-02-29", due = true, params = { day = 30, shortMonth = "last" } },
    { day = "2024-02-29", due = false, params = { day = 30 } },
  },
  validate = function(params)
    if math.type(params.day) ~= "integer" or params.day < 1 or params.day > 31 then
      error("day must be a whole number from 1 to 31 (got " .. tostring(params.day) .. ")", 0)
    end
    if params.shortMonth ~= "skip" and params.shortMonth ~= "last" then
      error("shortMonth must be \"skip\" or \"last\" (got " .. tostring(params.shortMonth) .. ")", 0)
    end
  end,
  isDue = function(day, params, habit)
    if day.day == params.day then return true end
    return params.shortMonth == "last" and params.day > day.daysInMonth and day.day == day.daysInMonth
  end,
}
