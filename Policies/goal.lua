-- Progress toward the daily goal: total / goal, at most 1.
return {
  description = "A day is done when its total reaches the goal: progress = min(total / goal, 1).",
  params = {},
  examples = {
    { total = 5, goal = 8, progress = 0.625 },
    { total = 8, goal = 8, progress = 1 },
    { total = 12, goal = 8, progress = 1 },
    { total = 0, goal = 1, progress = 0 },
  },
  progress = function(total, goal, params, day)
    return math.min(total / goal, 1)
  end,
  -- The same answers for a whole range in one call.
  progressRange = function(totals, goal, params, first)
    local out = {}
    for i = 1, #totals do
      local p = totals[i] / goal
      out[i] = p < 1 and p or 1
    end
    return out
  end,
}
