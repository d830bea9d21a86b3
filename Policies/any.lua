-- A group is done when one of its members is done, due that day or not.
return {
  description = "Done when any member is done that day (due or not): progress is the furthest member's; a skipped member is left out.",
  params = {},
  schema = {},
  examples = {
    { members = "NY", group = 1 },
    { members = "NN", group = 0 },
    { members = "-N", group = 0 },
    { members = {
        { name = "run", status = "missed", progress = 0.5, total = 2.5, goal = 5, unit = "km" },
        { name = "bike", status = "missed", progress = 0.8, total = 16, goal = 20, unit = "km" },
      }, group = 0.8 },
  },
  group = function(members, params, day)
    local best = 0
    for _, member in ipairs(members) do
      if member.status ~= "skipped" and member.progress > best then best = member.progress end
    end
    return best
  end,
}
