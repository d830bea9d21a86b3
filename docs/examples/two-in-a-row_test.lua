-- Cases `stackday policy test` runs beside two-in-a-row.lua's own: the same shapes as examples.
return {
  { name = "a miss between two met days", history = "YNY", current = 2, longest = 2, start = "2026-11-01" },
  { name = "skipped days are neither", history = "Y-N-NY", current = 1, longest = 1 },
}
