-- Progress toward the daily goal: total / goal, at most 1.
return {
  description = "A day is done when its total reaches the goal: progress = min(total / goal, 1).",
  params = {},
  schema = {},
  examples = {
    { total = 5, goal = 8, progress = 0.625 },
    { total = 8, goal = 8, progress = 1 },
    { total = 12, goal = 8, progress = 1 },
    { total = 0, goal = 1, progress = 0 },
  },
  progress = function(total, goal, params, day)
    return math.min(total / goal, 1)
  end,
  -- The same answers for a whole range in one call (the list of totals is this call's own,
  -- so it is overwritten with the answers).
  progressRange = function(totals, goal, params, first)
    for i = 1, #totals do
      local p = totals[i] / goal
      if p > 1 then p = 1 end
      totals[i] = p
    end
    return totals
  end,
}
