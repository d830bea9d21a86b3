-- The Lua side of the policy host: the sandbox every policy runs in, and the helpers the C core
-- calls. It runs once per state, before any policy is loaded, in a state that holds only the base,
-- string, table, math and utf8 libraries. The C core passes three functions (see
-- stackday_lua_host.h) and keeps the table this chunk returns.
local host = ...
local exhausted, memory_left, out_of_memory, budget_error = host.exhausted, host.memory_left, host.out_of_memory, host.budget_error
local QUOTA = host.quota
local H = {}

local next, type, error, select, tostring, tonumber = next, type, error, select, tostring, tonumber
local rawget, rawset, rawlen, rawequal = rawget, rawset, rawlen, rawequal
local raw_setmetatable, raw_getmetatable = setmetatable, getmetatable
local raw_pcall, raw_xpcall, raw_load = pcall, xpcall, load
local format, byte, sort, concat = string.format, string.byte, table.sort, table.concat
local huge, floor, mtype, tointeger = math.huge, math.floor, math.type, math.tointeger

-- The real string table backs method calls on strings ("x"):rep(3): make it safe in place.
string.dump = nil
local raw_find, raw_match, raw_gsub, raw_format = string.find, string.match, string.gsub, string.format
raw_getmetatable("").__metatable = false

-- Every library function a policy can reach does work in proportion to what it is charged: the
-- host counts VM instructions, the bytes a call allocates and the steps of its own pattern matcher
-- (string.find, match, gmatch and gsub, which replace Lua's), and a CPU-time timer ends a call
-- that passes its deadline whatever it is doing. What is left here are the C functions that loop
-- without allocating: each is charged its work before it runs, on the very arguments it is given
-- (a count written as a string is read as the number it is, once, here).
local charge, matcher, metatable_of = host.charge, host.matcher, host.metatable
local function whole(n)
  if type(n) == "string" then n = tonumber(n) end
  if type(n) == "number" then return tointeger(n) or n end
  return n
end
string.find, string.match, string.gmatch, string.gsub = matcher.find, matcher.match, matcher.gmatch, matcher.gsub
local find = matcher.find
-- string.rep can ask for gigabytes, or (of an empty string) loop for hours, in one C call:
-- each repetition is charged, and what the memory budget cannot hold is refused.
local raw_rep = string.rep
string.rep = function(s, n, sep)
  n = whole(n)
  if (type(s) == "string" or type(s) == "number") and type(n) == "number" and n > 1 then
    local size = (#tostring(s) + ((type(sep) == "string" or type(sep) == "number") and #tostring(sep) or 0)) * n
    if size > memory_left() then out_of_memory() end
    charge(n)
  end
  return raw_rep(s, n, sep)
end
-- table.move copies element by element in one C call: each element is charged.
local raw_move = table.move
table.move = function(a1, f, e, t, a2)
  f, e, t = whole(f), whole(e), whole(t)
  if type(f) == "number" and type(e) == "number" and e >= f then
    charge((e + 0.0) - f + 1) -- as a float: mininteger … maxinteger cannot wrap to 0
  end
  return raw_move(a1, f, e, t, a2)
end
-- table.insert and table.remove move elements in a C loop for as long as the table's __len
-- says: written here in Lua, every element moved is an instruction the budget counts. Arguments
-- are checked as Lua checks them, with its messages.
local function check_table(t, name)
  local kind = type(t)
  if kind ~= "table" then error(format("bad argument #1 to '%s' (table expected, got %s)", name, kind), 3) end
end
local function position(pos, name, arg)
  local n = whole(pos)
  if type(n) ~= "number" then
    error(format("bad argument #%d to '%s' (number expected, got %s)", arg, name, type(pos)), 3)
  end
  if mtype(n) ~= "integer" then
    error(format("bad argument #%d to '%s' (number has no integer representation)", arg, name), 3)
  end
  return n
end
local function out_of_bounds(name) error(format("bad argument #2 to '%s' (position out of bounds)", name), 3) end
-- t[from..last] one place up, the last first.
local function open_gap(t, from, last)
  for i = last, from, -1 do t[i + 1] = t[i] end
end
-- t[from + 1..last] one place down, the first first.
local function close_gap(t, from, last)
  for i = from, last - 1 do t[i] = t[i + 1] end
end
table.insert = function(t, ...)
  check_table(t, "insert")
  local size, given = #t, select("#", ...)
  if given == 1 then
    t[size + 1] = ...
  elseif given == 2 then
    local at, value = ...
    at = position(at, "insert", 2)
    if at < 1 or at > size + 1 then out_of_bounds("insert") end
    open_gap(t, at, size)
    t[at] = value
  else
    error("wrong number of arguments to 'insert'", 2)
  end
end
table.remove = function(t, at)
  check_table(t, "remove")
  local size = #t
  at = at == nil and size or position(at, "remove", 2)
  -- The last element, or one past it, may always be named; elsewhere only 1 … size.
  if at ~= size and (at < 1 or at > size + 1) then out_of_bounds("remove") end
  local removed = t[at]
  if at < size then
    close_gap(t, at, size)
    t[size] = nil
  else
    t[at] = nil
  end
  return removed
end
-- table.sort compares in C without the hook when no function is given: charged n log n
-- comparisons, each as long as the longest string it could read (comparing two 30 MB strings
-- reads them), and only on a plain table, whose length cannot change under it.
local raw_sort = table.sort
table.sort = function(t, less)
  check_table(t, "sort")
  if metatable_of(t) ~= nil then error("table.sort: policies sort plain tables only", 2) end
  local n = rawlen(t)
  if n > 1 then
    local comparisons = n * (floor(math.log(n, 2)) + 1)
    if less == nil then
      local longest = 0
      for i = 1, n do
        local v = rawget(t, i)
        if type(v) == "string" and #v > longest then longest = #v end
      end
      comparisons = comparisons * (1 + longest // 16)
    end
    charge(comparisons)
  end
  return raw_sort(t, less)
end
-- table.concat walks i..j in C: charged per element.
local raw_concat = table.concat
table.concat = function(t, sep, i, j)
  i, j = whole(i), whole(j)
  check_table(t, "concat")
  local first, last = i or 1, j
  if last == nil then last = #t end
  if type(first) == "number" and type(last) == "number" and last >= first then
    charge((last + 0.0) - first + 1) -- as a float: mininteger … maxinteger cannot wrap to 0
  end
  return raw_concat(t, sep, first, last)
end
-- Functions that scan their text without allocating: charged a step per byte.
local function scanned(f, text_arg)
  return function(...)
    local text = select(text_arg, ...)
    if type(text) == "string" then charge(#text) end
    return f(...)
  end
end
utf8.len, utf8.offset, utf8.codepoint = scanned(utf8.len, 1), scanned(utf8.offset, 1), scanned(utf8.codepoint, 1)
string.pack, string.unpack, string.packsize = scanned(string.pack, 1), scanned(string.unpack, 1), scanned(string.packsize, 1)
local raw_tonumber = tonumber
tonumber = function(v, base)
  if type(v) == "string" then charge(#v) end
  return raw_tonumber(v, base)
end
-- A table, function or userdata prints as its type and a number, never its address: an address
-- differs from run to run (a policy must be a pure function) and tells where the host's memory
-- is. The numbers count from 1 in each call, in the order values are first printed, so a call
-- learns nothing of the calls before it.
local serial = host.serial
local printed, printed_in, printed_count = nil, nil, 0
local referenced = {table = true, ["function"] = true, thread = true, userdata = true}
local weak_keys = {__mode = "k"}
local function printed_name(v, kind)
  local call = serial()
  if call ~= printed_in then printed, printed_in, printed_count = raw_setmetatable({}, weak_keys), call, 0 end
  local number = printed[v]
  if number == nil then
    printed_count = printed_count + 1
    number = printed_count
    printed[v] = number
  end
  return kind .. ": " .. number
end
-- What tostring gives in policies: a value's own __tostring when it has one, else its name.
local function text_of(v)
  local kind = type(v)
  if referenced[kind] then
    local mt = raw_getmetatable(v)
    if not (type(mt) == "table" and rawget(mt, "__tostring")) then return printed_name(v, kind) end
  end
  return tostring(v)
end
-- %p prints an address: refused. %s of a table, function or userdata prints as tostring does.
local gmatch = string.gmatch
string.format = function(f, ...)
  if type(f) ~= "string" then return raw_format(f, ...) end
  if find(f, "%%[-+ #0]*%d*%.?%d*p") then error("string.format: %p is not available in policies", 2) end
  local count = select("#", ...)
  for i = 1, count do
    if referenced[type((select(i, ...)))] then
      local args, n = {...}, 0
      for conversion in gmatch(f, "%%[-+ #0]*%d*%.?%d*(.)") do
        if conversion ~= "%" then
          n = n + 1
          if conversion == "s" and referenced[type(args[n])] then args[n] = text_of(args[n]) end
        end
      end
      return raw_format(f, table.unpack(args, 1, count))
    end
  end
  return raw_format(f, ...)
end

-- Each role's optional range form: one call for a whole range of days.
local range_forms = {isDue = "dueRange", progress = "progressRange", streak = "streakRange"}

-- Tables made read-only once a policy is loaded: their contents move to a backing table.
local frozen = raw_setmetatable({}, {__mode = "k"})

local function key_less(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == "number" or ta == "string" then return a < b end
  if ta == "boolean" then return (not a) and b end
  return false
end

-- pairs and next walk keys in a fixed order (numbers, then strings, sorted), so a policy's
-- answers cannot depend on the hash order, which changes from run to run.
local function sorted_keys(t)
  local keys, n = {}, 0
  for k in next, t do n = n + 1; keys[n] = k end
  sort(keys, key_less)
  return keys, n
end
local function safe_next(t, k)
  local source = frozen[t] or t
  local keys, n = sorted_keys(source)
  local i = 0
  if k ~= nil then
    for j = 1, n do if rawequal(keys[j], k) then i = j; break end end
    if i == 0 then error("invalid key to 'next'", 2) end
  end
  local key = keys[i + 1]
  if key == nil then return nil end
  return key, rawget(source, key)
end
local function safe_pairs(t)
  if type(t) ~= "table" then error(format("bad argument #1 to 'pairs' (table expected, got %s)", type(t)), 2) end
  local source = frozen[t] or t
  local keys, n = sorted_keys(source)
  local i = 0
  return function()
    i = i + 1
    if i <= n then local k = keys[i]; return k, rawget(source, k) end
  end, t, nil
end

local function freeze(t, what)
  local backing = {}
  for k, v in next, t do backing[k] = v end
  for k in next, backing do rawset(t, k, nil) end
  -- The metatable as stored, read in C: getmetatable would answer a __metatable field instead.
  local old = metatable_of(t)
  if old and rawget(old, "__metatable") ~= nil then
    error(format("%s cannot have a protected metatable (one with __metatable)", what), 0)
  end
  if old then raw_setmetatable(backing, old) end
  frozen[t] = backing
  raw_setmetatable(t, {
    __index = backing,
    __newindex = function(_, k) error(format("%s cannot change after loading (tried to set '%s')", what, tostring(k)), 2) end,
    __len = function() return #backing end,
    __metatable = false,
  })
  return t
end

-- The host's calendar functions, shared read-only by every policy.
local calendar = {}
for name, f in next, host.calendar do calendar[name] = f end
freeze(calendar, "calendar")

-- Finalizers (__gc) run where no budget reaches them, and weak tables (__mode) make answers
-- depend on when the collector runs: neither is allowed, however a policy tries. A table used as a
-- metatable is guarded, so that neither key can be added to it later.
local function refuse_key(k)
  if k == "__gc" or k == "__mode" then
    error(format("setmetatable: metatables with %s are not allowed in policies", k), 3)
  end
end
local guard = {__newindex = function(mt, k, v) refuse_key(k) rawset(mt, k, v) end, __metatable = false}
local function safe_rawset(t, k, v)
  if frozen[t] then error("rawset: this table is read-only", 2) end
  if metatable_of(t) == guard then refuse_key(k) end
  return rawset(t, k, v)
end
local function safe_rawget(t, k) return rawget(frozen[t] or t, k) end
local function safe_rawlen(t) return rawlen(frozen[t] or t) end

local function safe_setmetatable(t, mt)
  if type(t) ~= "table" then error(format("bad argument #1 to 'setmetatable' (table expected, got %s)", type(t)), 2) end
  if frozen[t] then error("setmetatable: this table is read-only", 2) end
  if metatable_of(t) == guard then error("setmetatable: this table is a metatable; its own metatable cannot change", 2) end
  if type(mt) == "table" then
    if rawget(mt, "__gc") ~= nil then refuse_key("__gc") end
    if rawget(mt, "__mode") ~= nil then refuse_key("__mode") end
    local own = metatable_of(mt)
    if own == nil then
      raw_setmetatable(mt, guard)
    elseif own ~= guard then
      error("setmetatable: a table with a metatable of its own cannot be a metatable in policies", 2)
    end
  elseif mt ~= nil then
    error(format("bad argument #2 to 'setmetatable' (nil or table expected, got %s)", type(mt)), 2)
  end
  return raw_setmetatable(t, mt)
end

local safe_tostring = text_of

-- A budget error must not be swallowed by the policy's own pcall: it is raised again.
local function rethrow(ok, ...)
  if not ok and exhausted() then budget_error() end
  return ok, ...
end
local function safe_pcall(f, ...) return rethrow(raw_pcall(f, ...)) end
-- A message handler called for the budget error would run inside the hook, where hooks are
-- off: it is not called once a budget is spent.
local function safe_xpcall(f, h, ...)
  return rethrow(raw_xpcall(f, function(e) if exhausted() then return e end return h(e) end, ...))
end

local function copy(t)
  local c = {}
  for k, v in next, t do c[k] = v end
  return c
end

local base = {"assert", "error", "ipairs", "rawequal", "select", "tonumber", "type", "_VERSION"}

-- trace(...): the policy's own print, shown only when asked for (`policy test`, `--trace`, the
-- lab); otherwise one call that does nothing. The host bounds the lines per call and their length.
local tracing, trace_line = host.tracing, host.trace_line
local function trace(...)
  if tracing() then
    local parts = {}
    for i = 1, select("#", ...) do parts[i] = safe_tostring((select(i, ...))) end
    trace_line(concat(parts, " "))
  end
end

function H.make_env()
  local env = {}
  for _, name in ipairs(base) do env[name] = _G[name] end
  env.pairs, env.next = safe_pairs, safe_next
  env.pcall, env.xpcall = safe_pcall, safe_xpcall
  env.rawget, env.rawset, env.rawlen = safe_rawget, safe_rawset, safe_rawlen
  env.getmetatable, env.setmetatable = raw_getmetatable, safe_setmetatable
  env.tostring = safe_tostring
  env.string = copy(string)
  env.table = copy(table)
  env.math = copy(math)
  env.math.random, env.math.randomseed = nil, nil
  env.utf8 = copy(utf8)
  env.calendar = calendar
  env.trace = trace
  env.load = function(chunk, name, mode, _)
    if type(chunk) ~= "string" then return nil, "load: policies may load source text only" end
    -- The compiler runs in C, in time that grows faster than the text for some shapes (a 256 KiB
    -- chain of `or` takes seconds): charged per byte, and bounded well below an installed script.
    if #chunk > 65536 then return nil, "load: a chunk may have at most 65536 bytes (64 KiB) in policies" end
    charge(#chunk * 4)
    return raw_load(chunk, name, "t", env)
  end
  env._G = env
  return env
end

-- The fields of a sealed policy table as stored: what the host walks to find its functions' lines.
function H.raw_fields(policy) return frozen[policy] or policy end

function H.seal(policy, env)
  if type(policy) ~= "table" then
    error(format("the file must return a table of roles (isDue, progress, streak, group), not a %s value", type(policy)), 0)
  end
  local roles = 0
  for _, role in ipairs({"isDue", "progress", "streak", "group"}) do
    local f = rawget(policy, role)
    if f ~= nil and type(f) ~= "function" then error(format("'%s' must be a function, not a %s value", role, type(f)), 0) end
    if f then roles = roles + 1 end
  end
  if roles == 0 then error("the table defines none of the roles isDue, progress, streak or group", 0) end
  for _, field in ipairs({"validate", "initial", "quota", "dueRange", "progressRange", "streakRange"}) do
    local f = rawget(policy, field)
    if f ~= nil and type(f) ~= "function" then error(format("'%s' must be a function, not a %s value", field, type(f)), 0) end
  end
  for role, range in pairs(range_forms) do
    if rawget(policy, range) and not rawget(policy, role) then
      error(format("'%s' needs '%s' too: the range form is a faster way to give the same answers", range, role), 0)
    end
  end
  local params = rawget(policy, "params")
  if params ~= nil and type(params) ~= "table" then error("'params' must be a table of defaults", 0) end
  freeze(env, "global variables")
  freeze(policy, "the policy table")
  return {policy = policy}
end

local function deep_copy(v, depth)
  if type(v) ~= "table" then return v end
  depth = (depth or 0) + 1
  if depth > 32 then error("parameters nest too deeply", 0) end
  local c = {}
  for k, x in next, frozen[v] or v do c[k] = deep_copy(x, depth) end
  return c
end

-- JSON, for describing policies to the host.
local function encode(v, out, depth)
  local t = type(v)
  if depth > 32 then error("value nests too deeply", 0) end
  if t == "nil" then out[#out + 1] = "null"
  elseif t == "boolean" then out[#out + 1] = v and "true" or "false"
  elseif t == "number" then
    if v ~= v or v == huge or v == -huge then out[#out + 1] = "null"
    elseif mtype(v) == "integer" then out[#out + 1] = format("%d", v)
    else out[#out + 1] = format("%.17g", v) end
  elseif t == "string" then
    out[#out + 1] = '"' .. raw_gsub(v, '[%c"\\]', function(c)
      local map = {['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t'}
      return map[c] or format("\\u%04x", byte(c))
    end) .. '"'
  elseif t == "table" then
    local source = frozen[v] or v
    local n = rawlen(source)
    local keys, count = sorted_keys(source)
    if count > 0 and count == n then
      out[#out + 1] = "["
      for i = 1, n do
        if i > 1 then out[#out + 1] = "," end
        encode(rawget(source, i), out, depth + 1)
      end
      out[#out + 1] = "]"
    else
      out[#out + 1] = "{"
      local first = true
      for i = 1, count do
        local k = keys[i]
        local x = rawget(source, k)
        if type(x) ~= "function" then
          if not first then out[#out + 1] = "," end
          first = false
          encode(tostring(k), out, depth + 1)
          out[#out + 1] = ":"
          encode(x, out, depth + 1)
        end
      end
      out[#out + 1] = "}"
    end
  else
    out[#out + 1] = "null"
  end
end
local function json(v)
  local out = {}
  encode(v, out, 0)
  return concat(out)
end

-- JSON text to Lua values: the one format structured values cross the boundary in. Objects
-- and arrays become tables, null nil, and a number written without a fraction or exponent an
-- integer (so `math.type(params.times) == "integer"` holds for {"times": 3}).
local sub, char = string.sub, utf8.char
local escapes = {['"'] = '"', ['\\'] = '\\', ['/'] = '/', b = '\b', f = '\f', n = '\n', r = '\r', t = '\t'}
local decode_value
local function skip_space(s, i)
  local _, last = raw_find(s, "^[ \t\r\n]*", i)
  return last + 1
end
local function decode_error(s, i, what)
  error(format("parameters are not valid JSON at character %d: %s", i, what), 0)
end
local function decode_string(s, i)
  local parts, start = {}, i + 1
  while true do
    local at = raw_find(s, '["\\]', start)
    if not at then decode_error(s, i, "unterminated string") end
    parts[#parts + 1] = sub(s, start, at - 1)
    if byte(s, at) == 34 then return concat(parts), at + 1 end
    local e = sub(s, at + 1, at + 1)
    if e == "u" then
      local hex = sub(s, at + 2, at + 5)
      local code = raw_match(hex, "^%x%x%x%x$") and tonumber(hex, 16)
      if not code then decode_error(s, at, "bad \\u escape") end
      local next_at = at + 6
      if code >= 0xD800 and code <= 0xDBFF and sub(s, next_at, next_at + 1) == "\\u" then
        local low = tonumber(sub(s, next_at + 2, next_at + 5), 16)
        if low and low >= 0xDC00 and low <= 0xDFFF then
          code = 0x10000 + (code - 0xD800) * 0x400 + (low - 0xDC00)
          next_at = next_at + 6
        end
      end
      parts[#parts + 1] = char(code)
      start = next_at
    else
      local c = escapes[e]
      if not c then decode_error(s, at, "bad escape") end
      parts[#parts + 1] = c
      start = at + 2
    end
  end
end
function decode_value(s, i, depth)
  if depth > 32 then decode_error(s, i, "nests too deeply") end
  i = skip_space(s, i)
  local c = byte(s, i)
  if c == 123 then -- {
    local t = {}
    i = skip_space(s, i + 1)
    if byte(s, i) == 125 then return t, i + 1 end
    while true do
      if byte(s, i) ~= 34 then decode_error(s, i, "expected a key") end
      local key
      key, i = decode_string(s, i)
      i = skip_space(s, i)
      if byte(s, i) ~= 58 then decode_error(s, i, "expected ':'") end
      t[key], i = decode_value(s, i + 1, depth + 1)
      i = skip_space(s, i)
      local d = byte(s, i)
      if d == 125 then return t, i + 1 end
      if d ~= 44 then decode_error(s, i, "expected ',' or '}'") end
      i = skip_space(s, i + 1)
    end
  elseif c == 91 then -- [
    local t, n = {}, 0
    i = skip_space(s, i + 1)
    if byte(s, i) == 93 then return t, i + 1 end
    while true do
      n = n + 1
      t[n], i = decode_value(s, i, depth + 1)
      i = skip_space(s, i)
      local d = byte(s, i)
      if d == 93 then return t, i + 1 end
      if d ~= 44 then decode_error(s, i, "expected ',' or ']'") end
      i = i + 1
    end
  elseif c == 34 then
    return decode_string(s, i)
  elseif raw_find(s, "true", i, true) == i then return true, i + 4
  elseif raw_find(s, "false", i, true) == i then return false, i + 5
  elseif raw_find(s, "null", i, true) == i then return nil, i + 4
  end
  local text = raw_match(s, "^-?%d+%.?%d*[eE]?[-+]?%d*", i)
  local number = text and tonumber(text)
  if not number then decode_error(s, i, "unexpected character") end
  if not raw_find(text, "[.eE]") then number = tointeger(number) or number end
  return number, i + #text
end
local function decode_json(s)
  local value, i = decode_value(s, 1, 0)
  if skip_space(s, i) <= #s then decode_error(s, i, "text after the value") end
  return value
end

-- A data file's value (a `NAME_test.lua` returning its cases) as JSON; functions are left out.
function H.data_json(value)
  return json(value)
end

function H.describe(record)
  local p = record.policy
  local roles = {}
  if p.isDue then roles[#roles + 1] = "schedule" end
  if p.progress then roles[#roles + 1] = "progress" end
  if p.streak then roles[#roles + 1] = "streak" end
  if p.group then roles[#roles + 1] = "group" end
  local description = p.description
  if description ~= nil and type(description) ~= "string" then description = tostring(description) end
  local examples = p.examples
  if examples ~= nil and type(examples) ~= "table" then error("'examples' must be a list of tables", 0) end
  local schema = p.schema
  if schema ~= nil and type(schema) ~= "table" then error("'schema' must be a table of parameter name = {type = …, description = …}", 0) end
  local tests = p.tests
  if tests ~= nil and type(tests) ~= "table" then error("'tests' must be a list of tables", 0) end
  return json({roles = roles, description = description or "", params = p.params or {}, examples = examples or {}, schema = schema or {},
               tests = tests or {}})
end

function H.bind(record, params_json, habit)
  local params = params_json == "" and {} or decode_json(params_json)
  if type(params) ~= "table" then error("parameters must be a JSON object", 0) end
  local p = record.policy
  local merged = deep_copy(p.params or {})
  for k, v in next, params do merged[k] = deep_copy(v) end
  if p.validate then p.validate(deep_copy(merged), habit) end
  return {record = record, params = merged, habit = habit}
end

function H.binding_parameters(binding)
  return json(binding.params)
end

-- Whether the binding's policy defines the function `name` (an optional one, as remind).
function H.defines(binding, name)
  return type(binding.record.policy[name]) == "function"
end

function H.call_parts(binding, role, use_range)
  local p = binding.record.policy
  local f = p[role]
  if type(f) ~= "function" then error(format("the policy does not define %s", role), 0) end
  local habit = binding.habit
  local range = use_range and p[range_forms[role]] or nil
  return f, deep_copy(binding.params), {startedOn = habit.startedOn, goal = habit.goal, unit = habit.unit}, range
end

-- A schedule's quota(params, habit) returns {times = N, per = "week" | "month" | D}; D is a
-- rolling window of D days; a week may say weekStart = "mon" (the default) or "sun". Answers:
-- times, kind (a QUOTA code from the host), and the window's days, or for a week the ISO weekday
-- it starts on (1 Monday, 7 Sunday).
function H.quota(binding)
  local q = binding.record.policy.quota
  if q == nil then return 0, QUOTA.none, 0 end
  if type(q) ~= "function" then error("'quota' must be a function", 0) end
  local answer = q(deep_copy(binding.params), binding.habit)
  if answer == nil then return 0, QUOTA.none, 0 end
  if type(answer) ~= "table" then error("quota must return {times = N, per = \"week\" | \"month\" | days}, not a " .. type(answer), 0) end
  local times, per = answer.times, answer.per
  if mtype(times) ~= "integer" or times < 1 then error("quota: times must be a whole number, 1 or more", 0) end
  local kind, days, period
  if per == "week" then kind, days, period = QUOTA.week, 7, "a week"
  elseif per == "month" then kind, days, period = QUOTA.month, 31, "a month"
  elseif mtype(per) == "integer" and per >= 1 and per <= 366 then kind, days, period = QUOTA.rolling, per, format("%d days", per)
  else error("quota: per must be \"week\", \"month\" or a whole number of days from 1 to 366", 0) end
  if times > days then error(format("quota: times is %d, but %s has at most %d days", times, period, days), 0) end
  if kind == QUOTA.week then
    local start = answer.weekStart
    if start == nil or start == "mon" then return times, kind, 1
    elseif start == "sun" then return times, kind, 7
    else error("quota: weekStart must be \"mon\" or \"sun\", not " .. tostring(start), 0) end
  end
  return times, kind, days
end

-- A streak state as JSON, for explain: what the rule returned, functions left out.
function H.state_json(state)
  return json(state)
end

-- The explanation of a fold: the states (JSON texts, already encoded) and the whys.
function H.explain_json(states, whys, count)
  local out = {'{"states":['}
  for i = 1, count + 1 do
    if i > 1 then out[#out + 1] = "," end
    out[#out + 1] = states[i]
  end
  out[#out + 1] = '],"whys":['
  for i = 1, count do
    if i > 1 then out[#out + 1] = "," end
    local why = whys[i]
    out[#out + 1] = why and json(sub(why, 1, 300)) or "null"
  end
  out[#out + 1] = "]}"
  return concat(out)
end

function H.initial_state(binding, params)
  local initial = binding.record.policy.initial
  if initial then
    local state = initial(params)
    if type(state) ~= "table" then error("initial must return a state table", 0) end
    return state
  end
  return {current = 0, longest = 0}
end

local function read_only(what)
  return function(_, k) error(format("%s is read-only (tried to set '%s')", what, tostring(k)), 2) end
end

-- A day's `iso` text, computed when asked for.
local iso_meta = {
  __index = function(t, k)
    if k == "iso" then return raw_format("%04d-%02d-%02d", rawget(t, "year"), rawget(t, "month"), rawget(t, "day")) end
  end,
}

-- A read-only view: an empty table reading through to `fields`, which the host fills and may
-- refill from day to day. Writes to the view, plain or raw, are refused.
function H.make_view(what, is_day)
  local fields = is_day and raw_setmetatable({}, iso_meta) or {}
  local view = raw_setmetatable({}, {__index = fields, __newindex = read_only(what), __len = function() return 0 end, __metatable = false})
  frozen[view] = fields
  return view, fields
end

return H
