-- The last day of every month.
return {
  description = "The last day of every month.",
  params = {},
  schema = {},
  examples = {
    { day = "2026-10-31", due = true },
    { day = "2026-11-30", due = true },
    { day = "2026-10-30", due = false },
    { day = "2023-02-28", due = true },
    { day = "2024-02-28", due = false },
    { day = "2024-02-29", due = true },
    { day = "2100-02-28", due = true },
    { day = "2026-12-31", due = true },
  },
  isDue = function(day, params, habit)
    return day.day == day.daysInMonth
  end,
}
