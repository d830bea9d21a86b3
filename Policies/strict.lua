-- The default streak rule: a due day met adds one, a due day missed resets.
return {
  description = "A due day met adds one; a due day missed resets; today pending, skipped and not-due days leave the streak.",
  params = {},
  schema = {},
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
  -- The same fold over a whole history in one call: jump from one mark that is not Y to the
  -- next (a C-level find), counting the met days in between.
  streakRange = function(state, history, params, first)
    local current, longest = state.current, state.longest
    local find, byte = string.find, string.byte
    local N = byte("N")
    local position, length = 1, #history
    while position <= length do
      local other = find(history, "[^Y]", position) or length + 1
      current = current + (other - position)
      if current > longest then longest = current end
      if other <= length and byte(history, other) == N then current = 0 end
      position = other + 1
    end
    state.current, state.longest = current, longest
    return state
  end,
}
