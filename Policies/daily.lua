-- Every day is due.
return {
  description = "Every day is due.",
  params = {},
  schema = {},
  examples = {
    { day = "2026-10-05", due = true },
    { day = "2024-02-29", due = true },
  },
  isDue = function(day, params, habit)
    return true
  end,
  -- The same answer for a whole range in one call: every day.
  dueRange = function(first, last, params, habit)
    return true
  end,
}
