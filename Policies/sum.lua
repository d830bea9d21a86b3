-- A group is done when its members' totals, in one unit, reach a goal together.
return {
  description = "Done when the members' totals together reach `goal` (every member in one unit): progress = min(sum / goal, 1).",
  params = {},
  schema = { goal = { type = "number", minimum = 0, description = "What the members' totals must reach together", required = true, example = 3 } },
  examples = {
    { members = {
        { name = "math", status = "completed", progress = 1, total = 2, goal = 1, unit = "hours" },
        { name = "economics", status = "pending", progress = 0.5, total = 0.5, goal = 1, unit = "hours" },
      }, group = 2.5 / 3, params = { goal = 3 } },
    { members = {
        { name = "math", status = "completed", progress = 1, total = 2, goal = 1, unit = "hours" },
        { name = "economics", status = "completed", progress = 1, total = 1.5, goal = 1, unit = "hours" },
      }, group = 1, params = { goal = 3 } },
  },
  validate = function(params)
    local goal = params.goal
    if type(goal) ~= "number" or goal ~= goal or goal <= 0 then
      error("goal must be a number above 0 (got " .. tostring(goal) .. ")", 0)
    end
  end,
  group = function(members, params, day)
    local sum, unit = 0, nil
    for _, member in ipairs(members) do
      if unit == nil then
        unit = member.unit
      elseif member.unit ~= unit then
        error(string.format("sum needs its members in one unit: %s counts %q, %s %q", members[1].name, unit, member.name, member.unit), 0)
      end
      sum = sum + member.total
    end
    return math.min(sum / params.goal, 1)
  end,
}
