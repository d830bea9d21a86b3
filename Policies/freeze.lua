-- Freezes: every `earnEvery` consecutive met due days earn one (held up to `max`);
-- a missed due day spends one instead of breaking the streak.
return {
  description = "Every `earnEvery` met due days in a row earn a freeze (up to `max` held); a missed due day spends one instead of breaking the streak.",
  params = { earnEvery = 7, max = 2 },
  schema = {
    earnEvery = { type = "integer", minimum = 1, description = "Met due days in a row that earn one freeze" },
    max = { type = "integer", minimum = 0, description = "The most freezes held at once" },
  },
  examples = {
    { history = "YYN", current = 0, longest = 2, params = { earnEvery = 3, max = 2 } },
    { history = "YYYNY", current = 4, longest = 4, params = { earnEvery = 3, max = 2 } },
    { history = "YYYNNY", current = 1, longest = 3, params = { earnEvery = 3, max = 2 } },
    { history = "YYYYYYNNY", current = 7, longest = 7, params = { earnEvery = 3, max = 2 } },
    { history = "YYYYYYYYYNNNY", current = 1, longest = 9, params = { earnEvery = 3, max = 2 } },
    { history = "YYYNYYYNY", current = 7, longest = 7, params = { earnEvery = 3, max = 1 } },
  },
  validate = function(params)
    if math.type(params.earnEvery) ~= "integer" or params.earnEvery < 1 then
      error("earnEvery must be a whole number of days, 1 or more (got " .. tostring(params.earnEvery) .. ")", 0)
    end
    if math.type(params.max) ~= "integer" or params.max < 0 then
      error("max must be a whole number, 0 or more (got " .. tostring(params.max) .. ")", 0)
    end
  end,
  initial = function(params)
    return { current = 0, longest = 0, run = 0, freezes = 0 }
  end,
  streak = function(state, day, outcome, params)
    if outcome.status == "completed" then
      state.current = state.current + 1
      state.run = state.run + 1
      if state.current > state.longest then state.longest = state.current end
      if state.run % params.earnEvery == 0 and state.freezes < params.max then
        state.freezes = state.freezes + 1
      end
    elseif outcome.status == "missed" then
      if state.freezes > 0 then
        state.freezes = state.freezes - 1
        state.run = 0
        return state, string.format("freeze: one spent, %d left; the streak holds", state.freezes)
      end
      state.current, state.run, state.freezes = 0, 0, 0
      return state, "freeze: none left; the streak ends"
    end
    return state
  end,
}
