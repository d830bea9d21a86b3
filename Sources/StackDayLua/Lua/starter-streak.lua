-- A streak rule: how the streak moves each day. The engine folds it over the habit's days in
-- order: `state` is your table (return it with whole numbers `current` and `longest`; keep anything
-- else you need in it), `outcome.status` is "completed", "missed", "pending" (today, not yet
-- reached), "skipped" or "notDue".
-- Try it: stackday policy test NAME, stackday policy simulate NAME --history YYNY
return {
  description = "Two misses in a row break the streak; one is forgiven.",
  params = { inARow = 2 },
  schema = {
    inARow = { type = "integer", minimum = 1, maximum = 30, description = "Misses in a row that break the streak" },
  },
  -- A history has one mark a day: Y met, N missed, - skipped, . not due, P pending.
  examples = {
    { history = "YYNYY", current = 4, longest = 4 },
    { history = "YYNNY", current = 1, longest = 2 },
  },
  tests = {
    { name = "a stricter rule breaks at once", history = "YYNY", current = 1, longest = 2, params = { inARow = 1 } },
    { name = "today still open keeps the streak", history = "YYP", current = 2, longest = 2 },
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
      if state.missed >= params.inARow then
        state.current = 0
        -- The optional second answer says why; `stackday explain` shows it.
        return state, string.format("%d misses in a row", state.missed)
      end
      trace("forgiven miss", state.missed, "of", params.inARow)
      return state, "one miss is forgiven"
    end
    return state
  end,
}
