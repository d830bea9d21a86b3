-- Every other day from the habit's start.
return {
  description = "every second day from the start",
  isDue = function(day, params, habit)
    return (day.ordinal - habit.startedOn.ordinal) % 2 == 0
  end,
  examples = {
    { day = "2026-10-03", start = "2026-10-01", due = true },
    { day = "2026-10-02", start = "2026-10-01", due = false },
  },
}
