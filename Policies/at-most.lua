-- A limit not to exceed: a day at or under the limit is met, over it missed; no entry is met.
return {
  description = "Stay at or under a limit (limit: a number >= 0); a day with nothing recorded is met.",
  params = {},
  schema = { limit = { type = "number", minimum = 0, description = "The most a day may total and still be met", required = true, example = 2 } },
  examples = {
    { total = 0, goal = 1, progress = 1, params = { limit = 2 } },
    { total = 2, goal = 1, progress = 1, params = { limit = 2 } },
    { total = 3, goal = 1, progress = 0, params = { limit = 2 } },
  },
  validate = function(params)
    if type(params.limit) ~= "number" or params.limit < 0 or params.limit ~= params.limit then
      error("limit must be a number, 0 or more (got " .. tostring(params.limit) .. ")", 0)
    end
  end,
  progress = function(total, goal, params, day)
    if total <= params.limit then return 1 end
    return 0
  end,
}
