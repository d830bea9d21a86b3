-- Two misses in a row break the streak; one alone is forgiven.
---@type stackday.Policy
return {
  description = "Two misses in a row break the streak; one alone is forgiven.",
  examples = {
    { history = "YYNYY", current = 4, longest = 4 },
    { history = "YYNNY", current = 1, longest = 2 },
  },
  tests = {
    { name = "today still open keeps the streak", history = "YNP", current = 1, longest = 1 },
  },
  initial = function(params)
    return { current = 0, longest = 0, missed = 0 }
  end,
  streak = function(state, day, outcome, params)
    if outcome.status == "completed" then
      state.current = state.current + 1
      state.missed = 0
      if state.current > state.longest then state.longest = state.current end
    elseif outcome.status == "missed" then
      state.missed = state.missed + 1
      if state.missed >= 2 then
        state.current = 0
        return state, "two misses in a row"
      end
      trace("forgiven", day.iso)
      return state, "one miss is forgiven"
    end
    return state
  end,
}
