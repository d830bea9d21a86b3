-- RFC 5545 recurrence rules at day level: {"rule": "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "start": "2026-01-01"}.
--
-- A day is due when it is an occurrence of the rule with DTSTART = start (default: the habit's
-- start day), or one of `include` (RDATE), and not one of `exclude` (EXDATE): RFC 5545 3.8.5
-- gathers the rule's and RDATE's days, then takes EXDATE's away, so COUNT counts the rule's own
-- occurrences. Without COUNT, a day is decided from its own period (its day, week, month or
-- year) alone; with COUNT, the occurrences are enumerated once per rule and start, and cached.

local WEEKDAYS = { MO = 1, TU = 2, WE = 3, TH = 4, FR = 5, SA = 6, SU = 7 }
local FREQS = { DAILY = 1, WEEKLY = 2, MONTHLY = 3, YEARLY = 4 }
local SUBDAILY = { SECONDLY = true, MINUTELY = true, HOURLY = true }
local TIME_PARTS = { BYHOUR = true, BYMINUTE = true, BYSECOND = true, TZID = true, DTSTART = true }
local KNOWN = { FREQ = true, INTERVAL = true, COUNT = true, UNTIL = true, BYDAY = true, BYMONTHDAY = true, BYMONTH = true,
                BYYEARDAY = true, BYWEEKNO = true, BYSETPOS = true, WKST = true }

-- Calendar arithmetic on day numbers (days since 1970-01-01) comes from the host, and so does the
-- hot loop: `calendar.select` scans a range (stepping by a daily INTERVAL) and
-- `calendar.occurrences` walks it period by period (INTERVAL, BYSETPOS) in native code, for the
-- days that pass the rule's BY parts, given once as a `calendar.filter`.
local ordinal, civil, month_length, weekday = calendar.ordinal, calendar.civil, calendar.daysInMonth, calendar.weekday
local select_days, make_filter, occurrences_of = calendar.select, calendar.filter, calendar.occurrences

-- A date; with `floating`, a date-time without a zone stands for its date (UNTIL=20270630T235959).
local function parse_date(text, part, floating)
  local y, m, d = text:match("^(%d%d%d%d)%-?(%d%d)%-?(%d%d)$")
  if not y and floating then
    y, m, d = text:match("^(%d%d%d%d)(%d%d)(%d%d)T%d%d%d%d%d%d$")
    if not y and text:match("^%d%d%d%d%d%d%d%dT%d%d%d%d%d%dZ$") then
      error(part .. ": '" .. text .. "' is a UTC time; give the rule to habit add, --schedule or the web form, " ..
            "which turn it into a day in the habit's time zone, or give a date (YYYYMMDD)", 0)
    end
  end
  if not y then
    if text:find("T") then
      error(part .. ": '" .. text .. "' has a time of day; the engine is day-level, give a date (YYYYMMDD)", 0)
    end
    error(part .. ": '" .. text .. "' is not a date (YYYYMMDD or YYYY-MM-DD)", 0)
  end
  y, m, d = tonumber(y), tonumber(m), tonumber(d)
  if m < 1 or m > 12 or d < 1 or d > month_length(y, m) then error(part .. ": " .. text .. " is not a valid date", 0) end
  return ordinal(y, m, d)
end

local function int_list(text, part, low, high, allow_negative)
  local list = {}
  for item in text:gmatch("[^,]+") do
    local n = tonumber(item)
    if not n or math.type(n) ~= "integer" or not item:match("^[+-]?%d+$") then error(part .. ": '" .. item .. "' is not a whole number", 0) end
    local magnitude = n < 0 and -n or n
    if magnitude < low or magnitude > high or (n < 0 and not allow_negative) then
      error(part .. ": " .. item .. " is out of range (" .. (allow_negative and "±" or "") .. low .. "…" .. high .. ")", 0)
    end
    list[#list + 1] = n
  end
  if #list == 0 then error(part .. " is empty", 0) end
  return list
end

local function set_of(list)
  local set = {}
  for _, v in ipairs(list) do set[v] = true end
  return set
end

-- Parses and checks a rule; errors name the part.
local function parse(text)
  if type(text) ~= "string" or text == "" then error("rule must be a string such as \"FREQ=WEEKLY;BYDAY=MO,WE\"", 0) end
  local rule = { interval = 1, wkst = 1 }
  local seen = {}
  local body = text:gsub("^RRULE:", "")
  for part in body:gmatch("[^;]+") do
    local name, value = part:match("^([%a%-]+)=(.+)$")
    if not name then error("'" .. part .. "' is not NAME=VALUE", 0) end
    name = name:upper()
    if TIME_PARTS[name] then error(name .. " needs a time of day; the engine is day-level", 0) end
    if not KNOWN[name] then error("unknown part " .. name, 0) end
    if seen[name] then error(name .. " appears twice", 0) end
    seen[name] = true
    value = value:upper()
    if name == "FREQ" then
      if SUBDAILY[value] then error("FREQ=" .. value .. " is below a day; the engine is day-level (use DAILY, WEEKLY, MONTHLY or YEARLY)", 0) end
      rule.freq = FREQS[value]
      if not rule.freq then error("FREQ: '" .. value .. "' is not DAILY, WEEKLY, MONTHLY or YEARLY", 0) end
    elseif name == "INTERVAL" then
      rule.interval = int_list(value, name, 1, 100000, false)[1]
    elseif name == "COUNT" then
      rule.count = int_list(value, name, 1, 100000, false)[1]
    elseif name == "UNTIL" then
      rule["until"] = parse_date(value, name, true)
    elseif name == "WKST" then
      rule.wkst = WEEKDAYS[value]
      if not rule.wkst then error("WKST: '" .. value .. "' is not a weekday (MO … SU)", 0) end
    elseif name == "BYDAY" then
      rule.byday = {}
      for item in value:gmatch("[^,]+") do
        local n, wd = item:match("^([+-]?%d*)(%a%a)$")
        if not wd or not WEEKDAYS[wd] then error("BYDAY: '" .. item .. "' is not a weekday such as MO, 2TU or -1FR", 0) end
        local nth = nil
        if n ~= "" then
          nth = tonumber(n)
          if not nth or nth == 0 or nth > 53 or nth < -53 then error("BYDAY: ordinal in '" .. item .. "' must be ±1…53", 0) end
        end
        rule.byday[#rule.byday + 1] = { nth = nth, weekday = WEEKDAYS[wd] }
      end
    elseif name == "BYMONTHDAY" then
      rule.bymonthday = set_of(int_list(value, name, 1, 31, true))
    elseif name == "BYMONTH" then
      rule.bymonth = set_of(int_list(value, name, 1, 12, false))
    elseif name == "BYYEARDAY" then
      rule.byyearday = set_of(int_list(value, name, 1, 366, true))
    elseif name == "BYWEEKNO" then
      rule.byweekno = set_of(int_list(value, name, 1, 53, true))
    elseif name == "BYSETPOS" then
      rule.bysetpos = int_list(value, name, 1, 366, true)
    end
  end
  if not rule.freq then error("FREQ is required", 0) end
  if rule.count and rule["until"] then error("COUNT and UNTIL cannot both be given", 0) end
  if rule.byweekno and rule.freq ~= FREQS.YEARLY then error("BYWEEKNO is only allowed with FREQ=YEARLY", 0) end
  -- RFC 5545 3.3.10: BYYEARDAY MUST NOT be specified when FREQ is DAILY, WEEKLY or MONTHLY.
  if rule.byyearday and (rule.freq == FREQS.DAILY or rule.freq == FREQS.WEEKLY or rule.freq == FREQS.MONTHLY) then
    error("BYYEARDAY is not allowed with FREQ=DAILY, FREQ=WEEKLY or FREQ=MONTHLY", 0)
  end
  if rule.bymonthday and rule.freq == FREQS.WEEKLY then error("BYMONTHDAY is not allowed with FREQ=WEEKLY", 0) end
  if rule.byday then
    for _, d in ipairs(rule.byday) do
      if d.nth then
        if rule.freq ~= FREQS.MONTHLY and rule.freq ~= FREQS.YEARLY then
          error("BYDAY: ordinals such as 2TU are only allowed with FREQ=MONTHLY or FREQ=YEARLY", 0)
        end
        if rule.freq == FREQS.YEARLY and rule.byweekno then error("BYDAY: ordinals are not allowed with BYWEEKNO", 0) end
        if rule.freq == FREQS.MONTHLY and (d.nth > 5 or d.nth < -5) then error("BYDAY: a month has at most 5 of a weekday", 0) end
      end
    end
  end
  if rule.bysetpos and not (rule.byday or rule.bymonthday or rule.bymonth or rule.byyearday or rule.byweekno) then
    error("BYSETPOS needs another BYxxx part to pick from", 0)
  end
  return rule
end

-- The defaults RFC 5545 takes from DTSTART when a rule names no day-level part: what the rule
-- does not give comes from DTSTART (3.3.10). A week number names a week, not a day, so BYWEEKNO
-- without BYDAY (nor BYMONTHDAY, BYYEARDAY) takes DTSTART's weekday, as libical and ical4j do
-- (python-dateutil keeps every day of the week).
local function with_defaults(rule, start)
  local filled = {}
  for k, v in pairs(rule) do filled[k] = v end
  if rule.byweekno and not (rule.byday or rule.bymonthday or rule.byyearday) then
    filled.byday = { { weekday = weekday(start) } }
    return filled
  end
  if rule.byweekno or rule.byyearday or rule.bymonthday or rule.byday then return rule end
  local _, m, d = civil(start)
  if rule.freq == FREQS.YEARLY then
    filled.bymonth = filled.bymonth or { [m] = true }
    filled.bymonthday = { [d] = true }
  elseif rule.freq == FREQS.MONTHLY then
    filled.bymonthday = { [d] = true }
  elseif rule.freq == FREQS.WEEKLY then
    filled.byday = { { weekday = weekday(start) } }
  end
  return filled
end

-- The rule's BY parts as a native filter (the period decides which parts expand: an nth weekday
-- counts within the month for a monthly rule or one with BYMONTH, else within the year).
local function filter_of(rule)
  local function keys(set)
    if not set then return nil end
    local list = {}
    for k in pairs(set) do list[#list + 1] = k end
    return list
  end
  return make_filter({
    months = keys(rule.bymonth), monthDays = keys(rule.bymonthday), yearDays = keys(rule.byyearday),
    weekNumbers = keys(rule.byweekno), weekdays = rule.byday,
    nthInMonth = rule.freq == FREQS.MONTHLY or rule.bymonth ~= nil, weekStart = rule.wkst,
  })
end

-- The periods a rule's occurrences are counted in, by FREQ; a yearly rule by week number counts
-- in the years of its weeks, which may start in December.
local PERIODS = { "day", "week", "month", "year" }

-- How `calendar.occurrences` walks the rule: every `every`-th period from the one holding
-- `anchor`, BYSETPOS picking within each.
local function walk_of(rule, every, anchor)
  return { period = rule.byweekno and "weekYear" or PERIODS[rule.freq], every = every, anchor = anchor, positions = rule.bysetpos }
end

local MONTH_NAMES = { "January", "February", "March", "April", "May", "June", "July", "August", "September",
                      "October", "November", "December" }

local function nth_text(n)
  local suffix = (n % 100 >= 11 and n % 100 <= 13) and "th" or ({ "st", "nd", "rd" })[n % 10] or "th"
  return n .. suffix
end

-- Why a rule whose BYMONTH and BYMONTHDAY never meet has no occurrence ("February has no 30th"),
-- or nil when they do meet somewhere.
local function month_day_reason(rule)
  if not (rule.bymonth and rule.bymonthday) then return nil end
  local months, days = {}, {}
  for m in pairs(rule.bymonth) do months[#months + 1] = m end
  for d in pairs(rule.bymonthday) do days[#days + 1] = d end
  table.sort(months)
  table.sort(days)
  for _, m in ipairs(months) do
    local longest = m == 2 and 29 or month_length(2001, m)
    for _, d in ipairs(days) do
      if (d < 0 and -d or d) <= longest then return nil end
    end
  end
  if #months == 1 and #days == 1 then
    local d = days[1]
    return MONTH_NAMES[months[1]] .. " has no " .. (d > 0 and nth_text(d) .. " day" or nth_text(-d) .. " day from the end")
  end
  return "no month in BYMONTH has a day in BYMONTHDAY"
end

-- The first occurrence in [first, last], taking every `step`-th period from the one holding
-- `first`; nil when there is none.
local function first_occurrence(rule, first, last, step)
  if rule.freq == FREQS.DAILY and not rule.bysetpos then
    -- A day is its own period: one native scan, stepping from `first`.
    return select_days(first, last, rule.filter, first, step, 1)[1]
  end
  return occurrences_of(first, last, rule.filter, walk_of(rule, step, first), 1)[1]
end

-- Refuses a rule with no occurrence at all, saying why when it can. The calendar repeats its
-- kinds of year (leap or not, the weekday of January 1st) within 2001–2028, so a pattern that
-- occurs nowhere there occurs nowhere. INTERVAL and UNTIL are then checked from the start,
-- over one 400-year cycle of the calendar at most.
local function require_occurrence(rule, start)
  if not first_occurrence(rule, ordinal(2001, 1, 1), ordinal(2028, 12, 31), 1) then
    error("the rule never occurs: " .. (month_day_reason(rule) or "no day matches all of its BY parts together"), 0)
  end
  if rule.interval == 1 and not rule["until"] then return end
  local last = start + 146097
  if rule["until"] and rule["until"] < last then last = rule["until"] end
  if not first_occurrence(rule, start, last, rule.interval) then
    local y, m, d = civil(start)
    local from = string.format("%04d-%02d-%02d", y, m, d)
    if rule["until"] and rule["until"] < start + 146097 then
      error("the rule never occurs between its start " .. from .. " and UNTIL", 0)
    end
    error("the rule never occurs with INTERVAL=" .. rule.interval .. " from its start " .. from, 0)
  end
end

-- Per rule text and start: the parsed rule and (with COUNT) its occurrences.
local compiled = {}

-- Periods of 400 years a COUNT is enumerated over at most.
local COUNT_SPANS = 1000

local function compile(text, start)
  local key = text .. "@" .. start
  local entry = compiled[key]
  if entry then return entry end
  local rule = with_defaults(parse(text), start)
  rule.filter = filter_of(rule)
  require_occurrence(rule, start)
  rule.walk = walk_of(rule, rule.interval, start)
  entry = { rule = rule, start = start }
  if rule.count then
    -- Enumerate once: at most COUNT occurrences, 400 years at a time from the start.
    local occurrences, sorted = {}, {}
    local z, spans = start, 0
    while #sorted < rule.count and spans < COUNT_SPANS do
      for _, day in ipairs(occurrences_of(z, z + 146096, rule.filter, rule.walk, rule.count - #sorted)) do
        occurrences[day] = true
        sorted[#sorted + 1] = day
      end
      z = z + 146097
      spans = spans + 1
    end
    entry.occurrences = occurrences
    entry.sorted = sorted
  end
  compiled[key] = entry
  return entry
end

local function start_of(params, habit)
  if params.start == nil then return habit.startedOn.ordinal end
  if type(params.start) ~= "string" then error("start must be a date such as \"2026-01-01\"", 0) end
  return parse_date(params.start, "start")
end

-- The compiled rule for one parameters table (the host hands the same table to every day of a
-- call): the last one is kept, so a call compiles once and nothing grows from call to call.
-- A list of dates (`exclude`, `include`) as a set and in order; nil when not given.
local function day_list(value, part)
  if value == nil then return nil end
  if type(value) ~= "table" then error(part .. " must be a list of dates such as [\"2026-12-25\"]", 0) end
  local set, sorted = {}, {}
  for _, text in ipairs(value) do
    if type(text) ~= "string" then error(part .. ": '" .. tostring(text) .. "' is not a date such as \"2026-12-25\"", 0) end
    local z = parse_date(text, part)
    if not set[z] then set[z] = true; sorted[#sorted + 1] = z end
  end
  table.sort(sorted)
  return { set = set, sorted = sorted }
end

local last_params, last_entry
local function entry_for(params, habit)
  if params == last_params then return last_entry end
  local entry = compile(params.rule, start_of(params, habit))
  local exclude, include = day_list(params.exclude, "exclude"), day_list(params.include, "include")
  if exclude or include then
    -- The compiled rule is shared by every parameters table with its text and start; the days
    -- added and taken away are this table's own.
    entry = setmetatable({ exclude = exclude and exclude.set, include = include }, { __index = entry })
  end
  last_params, last_entry = params, entry
  return entry
end

local function rule_due(entry, z)
  if z < entry.start then return false end
  if entry.occurrences then return entry.occurrences[z] == true end
  local rule = entry.rule
  if rule["until"] and z > rule["until"] then return false end
  -- The walk expands z's period whole (BYSETPOS counts in it) and answers z if it is an occurrence.
  return occurrences_of(z, z, rule.filter, rule.walk)[1] == z
end

local function is_due(entry, z)
  if entry.exclude and entry.exclude[z] then return false end
  if entry.include and entry.include.set[z] then return true end
  return rule_due(entry, z)
end

-- The rule's days of [first, last] with `include` added and `exclude` taken away, in order.
local function adjusted(entry, days, first, last)
  if not (entry.exclude or entry.include) then return days end
  local set, out = {}, {}
  for _, z in ipairs(days) do set[z] = true end
  if entry.include then
    for _, z in ipairs(entry.include.sorted) do
      if z >= first and z <= last then set[z] = true end
    end
  end
  for z in pairs(set) do
    if not (entry.exclude and entry.exclude[z]) then out[#out + 1] = z end
  end
  table.sort(out)
  return out
end

local function rule_range(entry, first, last)
  local rule = entry.rule
  local out = {}
  if entry.sorted then
    for _, z in ipairs(entry.sorted) do
      if z > last then break end
      if z >= first then out[#out + 1] = z end
    end
    return out
  end
  local lo = math.max(first, entry.start)
  local hi = rule["until"] and math.min(last, rule["until"]) or last
  -- Without BYSETPOS a day's fate does not depend on the rest of its period: a plain scan, stepping
  -- by INTERVAL when a day is its own period; else a walk of the periods. 400 years at a time.
  local scan = not rule.bysetpos and (rule.freq == FREQS.DAILY or rule.interval == 1)
  local step = rule.freq == FREQS.DAILY and rule.interval or 1
  local z = lo
  while z <= hi do
    local chunk = math.min(hi, z + 146096)
    local days = scan and select_days(z, chunk, rule.filter, entry.start, step) or occurrences_of(z, chunk, rule.filter, rule.walk)
    if z == lo and chunk == hi then return days end -- the whole range at once: its list is the answer
    table.move(days, 1, #days, #out + 1, out)
    z = chunk + 1
  end
  return out
end

return {
  description = "An RFC 5545 recurrence rule at day level (rule: \"FREQ=…;BY…\", start: DTSTART, default the habit's start).",
  params = {},
  schema = {
    rule = { type = "string", description = "An RFC 5545 RRULE at day level, e.g. FREQ=MONTHLY;BYDAY=2TU", required = true, example = "FREQ=WEEKLY;BYDAY=MO,WE" },
    start = { type = "string", description = "DTSTART as YYYY-MM-DD (default: the habit's start day)" },
    exclude = { type = "array", items = { type = "string" }, description = "EXDATE: days the rule gives that are not due, as YYYY-MM-DD" },
    include = { type = "array", items = { type = "string" }, description = "RDATE: days due besides the rule's, as YYYY-MM-DD" },
  },
  examples = {
    { day = "2026-10-30", due = true, params = { rule = "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1" } },
    { day = "2026-10-31", due = false, params = { rule = "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1" } },
    { day = "2026-10-13", due = true, params = { rule = "FREQ=MONTHLY;BYDAY=2TU" } },
    { day = "2024-02-29", due = true, start = "2024-02-29", params = { rule = "FREQ=YEARLY" } },
    { day = "2025-02-28", due = false, start = "2024-02-29", params = { rule = "FREQ=YEARLY" } },
    { day = "2026-11-30", due = false, start = "2026-10-31", params = { rule = "FREQ=MONTHLY" } },
    { day = "2026-10-14", due = false, params = { rule = "FREQ=WEEKLY;BYDAY=MO,WE", exclude = { "2026-10-14" } } },
    { day = "2026-10-15", due = true, params = { rule = "FREQ=WEEKLY;BYDAY=MO,WE", include = { "2026-10-15" } } },
    { day = "2027-06-30", due = true, start = "2027-06-01", params = { rule = "FREQ=DAILY;UNTIL=20270630T235959" } },
    { day = "2027-07-01", due = false, start = "2027-06-01", params = { rule = "FREQ=DAILY;UNTIL=20270630T235959" } },
  },
  validate = function(params, habit)
    compile(params.rule, start_of(params, habit))
    day_list(params.exclude, "exclude")
    day_list(params.include, "include")
  end,
  isDue = function(day, params, habit)
    return is_due(entry_for(params, habit), day.ordinal)
  end,
  -- The due days of a whole range, period by period.
  dueRange = function(first, last, params, habit)
    local entry = entry_for(params, habit)
    return adjusted(entry, rule_range(entry, first, last), first, last)
  end,
}
