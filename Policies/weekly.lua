-- Chosen weekdays every week, e.g. {"days": ["mon", "wed", "fri"]}.
local names = { mon = 1, tue = 2, wed = 3, thu = 4, fri = 5, sat = 6, sun = 7 }

-- The weekday set of a days list, built once per parameters table the host hands over (the last
-- one is kept: the host hands the same table to every day of a call).
local last_days, last_set
local function weekday_set(days)
  if days == last_days then return last_set end
  local set = {}
  for _, name in ipairs(days) do set[names[string.lower(name)]] = true end
  last_days, last_set = days, set
  return set
end

return {
  description = "The chosen weekdays of every week (days: mon … sun).",
  params = {},
  schema = { days = { type = "array", minItems = 1, items = { type = "string", enum = { "mon", "tue", "wed", "thu", "fri", "sat", "sun" } }, description = "The weekdays: mon, tue, wed, thu, fri, sat, sun", required = true, example = { "mon", "wed", "fri" } } },
  examples = {
    { day = "2026-10-05", due = true, params = { days = { "mon", "wed", "fri" } } },   -- Monday
    { day = "2026-10-06", due = false, params = { days = { "mon", "wed", "fri" } } },  -- Tuesday
    { day = "2026-10-11", due = true, params = { days = { "sun" } } },  -- Sunday
    { day = "2026-10-10", due = false, params = { days = { "sun" } } },
  },
  validate = function(params)
    if type(params.days) ~= "table" or #params.days == 0 then
      error("days must be a non-empty list of weekdays such as [\"mon\", \"wed\"]", 0)
    end
    for _, name in ipairs(params.days) do
      if type(name) ~= "string" or not names[string.lower(name)] then
        error("days: '" .. tostring(name) .. "' is not a weekday (use mon, tue, wed, thu, fri, sat, sun)", 0)
      end
    end
  end,
  isDue = function(day, params, habit)
    return weekday_set(params.days)[day.weekday] == true
  end,
}
