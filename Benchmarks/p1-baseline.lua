-- P1's baseline: the policy files' own isDue called in a plain loop by the bare Lua VM.
-- Usage: lua5.4 p1-baseline.lua POLICIES FIRST LAST HABITS "mon,wed;tue,thu;…"
-- Plain lua5.4 has no host calendar, so day views are built here incrementally, the cheapest
-- way plain Lua can; prints the seconds spent and the due days found.
local folder, first, last, habits = arg[1], tonumber(arg[2]), tonumber(arg[3]), tonumber(arg[4])
local weekly = dofile(folder .. "/weekly.lua")
local month_end = dofile(folder .. "/monthly-last-day.lua")
local sets = {}
for set in arg[5]:gmatch("[^;]+") do
  local days = {}
  for name in set:gmatch("[^,]+") do days[#days + 1] = name end
  sets[#sets + 1] = days
end
-- A day number's date by the 400-year cycle (cycles, centuries, four-year spans, years from
-- 1 March of year 0), as the host's calendar computes it (Sources/CLuaHost/day_view.c).
local march_month_start = {0, 31, 61, 92, 122, 153, 184, 214, 245, 275, 306, 337}
local function civil(ordinal)
  local days = ordinal + 719468
  local cycles = days // 146097
  local rest = days - cycles * 146097
  local centuries = math.min(rest // 36524, 3)
  rest = rest - centuries * 36524
  local spans = rest // 1461
  rest = rest - spans * 1461
  local years = math.min(rest // 365, 3)
  rest = rest - years * 365
  local index = rest // 31
  while index < 11 and march_month_start[index + 2] <= rest do index = index + 1 end
  local month = index < 10 and index + 3 or index - 9
  return cycles * 400 + centuries * 100 + spans * 4 + years + (month <= 2 and 1 or 0), month, rest - march_month_start[index + 1] + 1
end
local function leap(y) return y % 4 == 0 and (y % 100 ~= 0 or y % 400 == 0) end
local lengths = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
local before = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334}
local start = os.clock()
local due = 0
for h = 0, habits - 1 do
  local policy = h % 2 == 0 and weekly or month_end
  local params = { days = sets[(h // 2) % 5 + 1] }
  local y, m, d = civil(first)
  local habit = { startedOn = { year = y, month = m, day = d, ordinal = first }, goal = 1, unit = "" }
  local day = {}
  -- Day views built incrementally, the cheapest way plain Lua can.
  local weekday = (first + 3) % 7 + 1
  local length = (m == 2 and leap(y)) and 29 or lengths[m]
  for z = first, last do
    day.year, day.month, day.day, day.weekday, day.ordinal = y, m, d, weekday, z
    day.daysInMonth = length
    day.yearDay = before[m] + d + ((m > 2 and leap(y)) and 1 or 0)
    if policy.isDue(day, params, habit) then due = due + 1 end
    d = d + 1
    weekday = weekday % 7 + 1
    if d > length then
      d, m = 1, m + 1
      if m > 12 then m, y = 1, y + 1 end
      length = (m == 2 and leap(y)) and 29 or lengths[m]
    end
  end
end
io.write(string.format("%.6f %d\n", os.clock() - start, due))
