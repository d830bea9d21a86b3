-- Monday to Friday.
return {
  description = "Monday to Friday are due; Saturday and Sunday are not.",
  params = {},
  schema = {},
  examples = {
    { day = "2026-10-09", due = true },   -- Friday
    { day = "2026-10-10", due = false },  -- Saturday
    { day = "2026-10-11", due = false },  -- Sunday
    { day = "2026-10-12", due = true },   -- Monday
  },
  isDue = function(day, params, habit)
    return day.weekday <= 5
  end,
}
