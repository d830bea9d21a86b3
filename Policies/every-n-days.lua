-- Every N days, counted from the habit's start day.
return {
  description = "Every N days counted from the habit's start day (every: 1 or more).",
  params = {},
  schema = { every = { type = "integer", minimum = 1, description = "Days from one due day to the next, counted from the start", required = true, example = 2 } },
  examples = {
    { day = "2026-10-01", start = "2026-10-01", due = true, params = { every = 3 } },
    { day = "2026-10-03", start = "2026-10-01", due = false, params = { every = 3 } },
    { day = "2026-10-04", start = "2026-10-01", due = true, params = { every = 3 } },
    { day = "2024-03-01", start = "2024-02-28", due = true, params = { every = 2 } },   -- Feb 29 is a day too
    { day = "2024-03-01", start = "2024-02-29", due = false, params = { every = 2 } },
    { day = "2023-03-02", start = "2023-02-28", due = true, params = { every = 2 } },
    { day = "2101-01-01", start = "2100-12-31", due = false, params = { every = 2 } },
  },
  validate = function(params)
    if math.type(params.every) ~= "integer" or params.every < 1 then
      error("every must be a whole number of days, 1 or more (got " .. tostring(params.every) .. ")", 0)
    end
  end,
  isDue = function(day, params, habit)
    local since = day.ordinal - habit.startedOn.ordinal
    return since >= 0 and since % params.every == 0
  end,
}
