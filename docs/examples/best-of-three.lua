-- A streak that survives one miss in any three due days in a row, but not two.
return {
  description = "A miss is forgiven unless another miss came within the previous two due days.",
  params = {},
  examples = {
    { history = "YYNYY", current = 4, longest = 4 },
    { history = "YNNY", current = 1, longest = 1 },
    { history = "YNYNY", current = 1, longest = 2 },
    { history = "YNYYNY", current = 4, longest = 4 },
  },
  initial = function(params)
    return { current = 0, longest = 0, since_miss = 99 }
  end,
  streak = function(state, day, outcome, params)
    if outcome.status == "completed" then
      state.current = state.current + 1
      state.since_miss = state.since_miss + 1
      if state.current > state.longest then state.longest = state.current end
    elseif outcome.status == "missed" then
      if state.since_miss < 2 then state.current = 0 end
      state.since_miss = 0
    end
    return state
  end,
}
