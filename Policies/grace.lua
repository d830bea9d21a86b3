-- A miss is forgiven when at most `misses` misses fall in the `per` days ending on it. A miss's
-- step says why (the optional second answer `explain` shows).
return {
  description = "Forgives a missed due day when at most `misses` misses fall in the `per` days ending on it; a forgiven miss keeps the streak without adding to it.",
  params = { misses = 1, per = 7 },
  schema = {
    misses = { type = "integer", minimum = 0, description = "Misses forgiven within the window" },
    per = { type = "integer", minimum = 1, maximum = 366, description = "The window, in days ending on the missed day" },
  },
  examples = {
    { history = "YYNYY", current = 4, longest = 4 },
    { history = "YYNNY", current = 1, longest = 2 },
    { history = "YNYYYYYYNY", current = 8, longest = 8 },
    { history = "YNYYYNY", current = 1, longest = 4, params = { misses = 1, per = 7 } },
    { history = "YNYYYNY", current = 5, longest = 5, params = { misses = 2, per = 7 } },
  },
  validate = function(params)
    if math.type(params.misses) ~= "integer" or params.misses < 0 then
      error("misses must be a whole number, 0 or more (got " .. tostring(params.misses) .. ")", 0)
    end
    if math.type(params.per) ~= "integer" or params.per < 1 or params.per > 366 then
      error("per must be a whole number of days from 1 to 366 (got " .. tostring(params.per) .. ")", 0)
    end
  end,
  initial = function(params)
    return { current = 0, longest = 0, misses = {} }
  end,
  streak = function(state, day, outcome, params)
    if outcome.status == "completed" then
      state.current = state.current + 1
      if state.current > state.longest then state.longest = state.current end
    elseif outcome.status == "missed" then
      -- misses within the window ending today, this one included
      local recent = { day.ordinal }
      for _, ordinal in ipairs(state.misses) do
        if day.ordinal - ordinal < params.per then recent[#recent + 1] = ordinal end
      end
      state.misses = recent
      if #recent > params.misses then
        state.current = 0
        return state, string.format("grace: %d misses in %d days, over the %d forgiven", #recent, params.per, params.misses)
      end
      return state, string.format("grace: %d of %d misses in %d days used; the streak holds", #recent, params.misses, params.per)
    end
    return state
  end,
}
