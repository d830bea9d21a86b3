-- A routine whose members weigh differently: the day is done once the weighted share of what
-- the due members did reaches `enough`. A member without a weight weighs 1; a member not due
-- that day (or skipped) is left out of the share.
return {
  description = "A weighted routine: done when the weighted share of the members' progress reaches `enough`.",
  params = { weights = {}, enough = 1 },
  schema = {
    weights = { type = "object", description = "Each member's weight by its habit's name (default 1)." },
    enough = { type = "number", minimum = 0.01, maximum = 1, description = "The weighted share that makes the day done." },
  },
  examples = {
    { name = "the heavy member alone is enough", members = {{ name = "read", progress = 1 }, { name = "stretch", progress = 0 }},
      params = { weights = { read = 3 }, enough = 0.75 }, group = 1 },
    { name = "half of the weight done", members = {{ name = "read", progress = 0.5 }, { name = "stretch", progress = 1 }},
      params = { weights = { read = 3 }, enough = 1 }, group = 0.625 },
    { name = "a skipped member is left out", members = {{ name = "read", status = "skipped" }, { name = "stretch", progress = 1 }},
      params = {}, group = 1 },
  },
  group = function(members, params)
    local done, total = 0, 0
    for _, member in ipairs(members) do
      if member.status ~= "notDue" and member.status ~= "skipped" then
        local weight = params.weights[member.name] or 1
        done = done + weight * member.progress
        total = total + weight
      end
    end
    if total == 0 then return 0 end
    return math.min(1, done / total / params.enough)
  end,
}
