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
  -- The same fold over a whole history in one call: misses (N) cut the history into runs, and
  -- each run's met days (Y) add up; the other marks leave the streak alone.
  streakRange = function(state, history, params, first)
    local current, longest = state.current, state.longest
    local position = 1
    while true do
      local miss = string.find(history, "N", position, true)
      local run = string.sub(history, position, (miss or 0) - 1)
      local _, met = string.gsub(run, "Y", "")
      current = current + met
      if current > longest then longest = current end
      if not miss then break end
      current = 0
      position = miss + 1
    end
    state.current, state.longest = current, longest
    return state
  end,
}
