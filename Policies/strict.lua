-- The default streak rule: a due day met adds one, a due day missed resets.
return {
  description = "A due day met adds one; a due day missed resets; today pending, skipped and not-due days leave the streak.",
  params = {},
  examples = {
    { history = "YYY", current = 3, longest = 3 },
    { history = "YYNY", current = 1, longest = 2 },
    { history = "YY-Y", current = 3, longest = 3 },
    { history = "Y.Y", current = 2, longest = 2 },
    { history = "YYN", current = 0, longest = 2 },
  },
  streak = function(state, day, outcome, params)
    local status = outcome.status
    if status == "completed" then
      local current = state.current + 1
      state.current = current
      if current > state.longest then state.longest = current end
    elseif status == "missed" then
      state.current = 0
    end
    return state
  end,
  -- The same fold over a whole history in one call (Y met, N missed; other marks leave it).
  streakRange = function(state, history, params, first)
    local current, longest = state.current, state.longest
    local Y, N = string.byte("Y"), string.byte("N")
    for i = 1, #history do
      local mark = string.byte(history, i)
      if mark == Y then
        current = current + 1
        if current > longest then longest = current end
      elseif mark == N then
        current = 0
      end
    end
    state.current, state.longest = current, longest
    return state
  end,
}
