-- The nth weekday of every month: the 2nd Tuesday, the last Friday (nth = -1).
local names = { mon = 1, tue = 2, wed = 3, thu = 4, fri = 5, sat = 6, sun = 7 }

return {
  description = "The nth weekday of every month (nth: 1…5, or -1 for the last; weekday: mon … sun).",
  params = {},
  schema = {
    nth = { type = "integer", enum = { 1, 2, 3, 4, 5, -1 }, description = "Which one of the month: 1 to 5, or -1 for the last", required = true, example = 2 },
    weekday = { type = "string", description = "The weekday: mon, tue, wed, thu, fri, sat or sun", required = true, example = "tue" },
  },
  examples = {
    { day = "2026-10-13", due = true, params = { nth = 2, weekday = "tue" } },
    { day = "2026-10-06", due = false, params = { nth = 2, weekday = "tue" } },
    { day = "2026-10-30", due = true, params = { nth = -1, weekday = "fri" } },
    { day = "2026-10-23", due = false, params = { nth = -1, weekday = "fri" } },
    { day = "2026-11-30", due = true, params = { nth = 5, weekday = "mon" } },
    { day = "2026-10-26", due = false, params = { nth = 5, weekday = "mon" } },  -- October 2026 has four Mondays
    { day = "2024-02-29", due = true, params = { nth = 5, weekday = "thu" } },
  },
  validate = function(params)
    local nth = params.nth
    if math.type(nth) ~= "integer" or not ((nth >= 1 and nth <= 5) or nth == -1) then
      error("nth must be 1, 2, 3, 4, 5 or -1 for the last (got " .. tostring(nth) .. ")", 0)
    end
    if type(params.weekday) ~= "string" or not names[string.lower(params.weekday)] then
      error("weekday: '" .. tostring(params.weekday) .. "' is not a weekday (use mon … sun)", 0)
    end
  end,
  isDue = function(day, params, habit)
    if day.weekday ~= names[string.lower(params.weekday)] then return false end
    if params.nth == -1 then return day.day + 7 > day.daysInMonth end
    return (day.day - 1) // 7 + 1 == params.nth
  end,
}
