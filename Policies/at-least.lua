-- A group is done when `count` of its members are done that day, due or not.
return {
  description = "Done when at least `count` members are done that day (due or not): progress is the sum of the furthest `count` members' progress over `count`; a skipped member is left out.",
  params = { count = 1 },
  schema = { count = { type = "integer", minimum = 1, description = "How many members make the group done", example = 2 } },
  examples = {
    { members = "YYN", group = 1, params = { count = 2 } },
    { members = "YNN", group = 0.5, params = { count = 2 } },
    { members = "Y-N", group = 0.5, params = { count = 2 } },
    { members = "NNY", group = 1 },
  },
  validate = function(params)
    local count = params.count
    if math.type(count) ~= "integer" or count < 1 then
      error("count must be a whole number, 1 or more (got " .. tostring(count) .. ")", 0)
    end
  end,
  group = function(members, params, day)
    local shares = {}
    for _, member in ipairs(members) do
      if member.status ~= "skipped" then shares[#shares + 1] = member.progress end
    end
    table.sort(shares, function(a, b) return a > b end)
    local sum = 0
    for i = 1, math.min(params.count, #shares) do sum = sum + shares[i] end
    return math.min(sum / params.count, 1)
  end,
}
