-- A schedule: which days the habit asks for. isDue answers true or false for one day.
-- `day` is read-only: year, month, day, weekday (1 = Monday … 7 = Sunday), yearDay,
-- daysInMonth, ordinal (days since 1970-01-01) and iso ("2026-10-05").
-- Try it: stackday policy test NAME, stackday policy preview NAME
return {
  description = "Weekdays, and one weekend day every other week.",
  -- Defaults; a habit's own parameters (--schedule-params) are merged over them.
  params = { weekend = 6 },
  -- What each parameter is: checked whenever a habit gives parameters.
  schema = {
    weekend = { type = "integer", minimum = 6, maximum = 7, description = "The weekend day asked for: 6 Saturday, 7 Sunday" },
  },
  -- Cases `policy check` and `policy test` run: a day and whether it is due.
  examples = {
    { day = "2026-10-05", due = true },                           -- a Monday
    { day = "2026-10-10", due = true, start = "2026-10-05" },     -- the first Saturday
    { day = "2026-10-17", due = false, start = "2026-10-05" },    -- the second is not
  },
  -- More cases, named: `policy test` runs them too (so does a NAME_test.lua beside this file).
  tests = {
    { name = "Sunday when asked", day = "2026-10-11", due = true, start = "2026-10-05", params = { weekend = 7 } },
  },
  isDue = function(day, params, habit)
    if day.weekday <= 5 then return true end
    if day.weekday ~= params.weekend then return false end
    -- Every other week, counted from the habit's start.
    local weeks = (day.ordinal - habit.startedOn.ordinal) // 7
    trace("weekend day", day.iso, "week", weeks)  -- shown only by policy test, --trace and the lab
    return weeks % 2 == 0
  end,
}
