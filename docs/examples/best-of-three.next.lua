-- The next version of best-of-three: a second miss within three due days (not two) breaks the streak.
return {
  description = "A miss is forgiven unless another miss came within the previous three due days.",
  params = {},
  examples = {
    { history = "YYNYY", current = 4, longest = 4 },
    { history = "YNYYNY", current = 1, longest = 3 },
    { history = "YNYYYNY", current = 5, longest = 5 },
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
      if state.since_miss < 3 then state.current = 0 end
      state.since_miss = 0
    end
    return state
  end,
}
