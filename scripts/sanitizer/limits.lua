-- Loaded by scripts/sanitizer/driver.c into a real host: every calendar function at and past the
-- ends of its range, and the matcher on the inputs that stress it, inside the sandbox. Anything
-- but a clean answer or the expected error fails the load.
local maxi, mini = math.maxinteger, math.mininteger
local extremes = { 0, 1, -1, 146096, -146097, 1000000000000, -1000000000000, 1000000000001, -1000000000001,
  3000000000, -3000000000, 3000000001, maxi, mini, maxi - 1, mini + 1 }
local function expect_ok_or_range(f, ...)
  local ok, err = pcall(f, ...)
  if not ok and not tostring(err):find("within", 1, true) and not tostring(err):find("must be", 1, true)
      and not tostring(err):find("at most", 1, true) then
    error("unexpected error: " .. tostring(err))
  end
end
for _, a in ipairs(extremes) do
  expect_ok_or_range(calendar.civil, a)
  expect_ok_or_range(calendar.weekday, a)
  expect_ok_or_range(calendar.isLeapYear, a)
  for _, m in ipairs({ 1, 2, 12 }) do
    expect_ok_or_range(calendar.daysInMonth, a, m)
    expect_ok_or_range(calendar.nthWeekday, a, m, -1, 5)
    for _, d in ipairs(extremes) do expect_ok_or_range(calendar.ordinal, a, m, d) end
  end
  for _, b in ipairs(extremes) do
    for _, step in ipairs({ 1, 7, maxi }) do
      expect_ok_or_range(calendar.select, a, b, { months = { 2 } }, a, step, 3)
      expect_ok_or_range(calendar.select, b - 10, b, { monthDays = { -1 } }, mini, step)
      for _, period in ipairs({ "day", "week", "month", "year", "weekYear" }) do
        expect_ok_or_range(calendar.occurrences, b - 400, b, { weekdays = { { weekday = 1 } }, weekNumbers = { -1 } },
          { period = period, every = step, anchor = a, positions = { 1, -1 } }, 3)
      end
    end
  end
end
-- Dates round-trip over a wide range.
for z = -1000000000000, 1000000000000, 7919000001 do
  local y, m, d = calendar.civil(z)
  assert(calendar.ordinal(y, m, d) == z, "round trip at " .. z)
end
-- The matcher inside the sandbox, on the shapes that stress it.
local s = ("ab"):rep(2000)
assert(s:find("().-%1") == nil)
assert(select(2, s:gsub("(a)(b)", "%2%1")) == 2000)
assert(("x"):rep(300):find(("x?"):rep(199)) == 1)
assert(not pcall(string.find, ("x"):rep(300), ("x?"):rep(200)))
assert(s:find(("ab"):rep(500) .. "c", 1, true) == nil)
return { isDue = function(day) local y = calendar.civil(day.ordinal) return y >= 2024 end }
