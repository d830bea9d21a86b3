-- A group is done when every member due that day is done.
return {
  description = "Done when every member due that day is done: progress is the mean of the due members' progress; a skipped member is left out.",
  params = {},
  schema = {},
  examples = {
    { members = "YY", group = 1 },
    { members = "YN", group = 0.5 },
    { members = "YNN.", group = 1 / 3 },
    { members = "Y-", group = 1 },
    { members = {
        { name = "water", status = "completed", progress = 1, total = 8, goal = 8, unit = "glasses" },
        { name = "read", status = "pending", progress = 0.25, total = 5, goal = 20, unit = "pages" },
      }, group = 0.625 },
  },
  group = function(members, params, day)
    local sum, due = 0, 0
    for _, member in ipairs(members) do
      if member.status ~= "notDue" and member.status ~= "skipped" then
        sum = sum + member.progress
        due = due + 1
      end
    end
    if due == 0 then return 0 end
    return sum / due
  end,
}
