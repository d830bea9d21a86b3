-- The policies' pattern functions against Lua's own, case by generated case.
-- Called with (ours, seed, cases): `ours` holds the host's find, match, gmatch and gsub; Lua's
-- are the `string` library of the same state. Returns a report whose first line is
-- "N cases, D differences"; each difference follows, shrunk to a minimal case.
local ours, seed, cases = ...
local stock = string
local random = math.random
math.randomseed(seed)

-- Bytes subjects are made of: letters the patterns name, every special, digits, space, NUL and
-- bytes past ASCII.
local subject_bytes = { "a", "b", "c", "x", "a", "b", "(", ")", "[", "]", "%", "-", "^", "$", ".", "*", "+",
  "?", " ", "1", "2", "\0", "\n", "\255", "\200", "_", "A", "B" }

local function pick(list) return list[random(#list)] end

local function make_subject()
  local n = random(0, 14)
  if random(12) == 1 then n = random(15, 60) end
  local parts = {}
  for i = 1, n do parts[i] = pick(subject_bytes) end
  return table.concat(parts)
end

local classes = { "a", "A", "c", "C", "d", "D", "g", "G", "l", "L", "p", "P", "s", "S", "u", "U", "w", "W",
  "x", "X", "z", "Z" }
local escaped = { "%.", "%%", "%(", "%)", "%[", "%]", "%-", "%^", "%$", "%*", "%+", "%?", "%q", "%_", "%\0" }
local literal = { "a", "b", "c", "x", "1", " ", "_", "A", "\0", "\255", "]", "^" }
local bracket_members = { "a", "b", "c", "x", "a-c", "b-a", "%a", "%d", "%s", "%]", "%-", "-", "]", "^", ".", "%",
  "\0", "\0-\255", "1-2", "(", ")", "%W" }

local function bracket()
  local parts = { "[" }
  if random(3) == 1 then parts[#parts + 1] = "^" end
  if random(8) == 1 then parts[#parts + 1] = "]" end
  for _ = 1, random(1, 4) do parts[#parts + 1] = pick(bracket_members) end
  parts[#parts + 1] = "]"
  return table.concat(parts)
end

-- One single-byte item: a byte, '.', an escape, a class or a set.
local function single_item()
  local k = random(10)
  if k <= 3 then return pick(literal)
  elseif k == 4 then return "."
  elseif k <= 6 then return "%" .. pick(classes)
  elseif k == 7 then return pick(escaped)
  else return bracket() end
end

local quantifiers = { "", "", "", "*", "+", "-", "?" }

-- A sequence of items with `open` captures open around it (for back-references).
local function items(depth, closed)
  local parts = {}
  for _ = 1, random(1, 4) do
    local k = random(20)
    if k <= 11 then
      parts[#parts + 1] = single_item() .. pick(quantifiers)
    elseif k <= 13 and depth < 3 then
      parts[#parts + 1] = "(" .. items(depth + 1, closed) .. ")"
      closed[0] = (closed[0] or 0) + 1
    elseif k == 14 then
      parts[#parts + 1] = "()"
      closed[0] = (closed[0] or 0) + 1
    elseif k == 15 then
      parts[#parts + 1] = "%b" .. pick({ "()", "ab", "[]", "xx", "a" })
    elseif k == 16 then
      parts[#parts + 1] = "%f" .. bracket()
    elseif k == 17 then
      parts[#parts + 1] = "%" .. random(0, 3)
    elseif k == 18 then
      parts[#parts + 1] = pick({ "(", ")", "[", "%", "[^", "%f", "%b" })
    else
      parts[#parts + 1] = single_item()
    end
  end
  return table.concat(parts)
end

local function make_pattern()
  local p = items(0, {})
  if random(4) == 1 then p = "^" .. p end
  if random(5) == 1 then p = p .. "$" end
  if random(10) == 1 then p = p:sub(1, random(0, #p)) end -- cut anywhere, often malformed
  if random(40) == 1 then p = pick({ "a?", "(a)", "a-", "()", "a*" }):rep(random(150, 210)) end
  return p
end

local replacements = { "x", "%0", "%1", "<%2>", "%%", "%", "%x", "[%1%1]", "", "%9", 7 }
local repl_table = { a = "A", b = false, x = 12, [1] = "one", [2] = {}, ["()"] = "pos" }

-- Results as text: every value's type and value, or the error's message.
local function show(ok, ...)
  local parts = { ok and "ok" or "error" }
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    parts[#parts + 1] = type(v) .. ":" .. tostring(v)
  end
  return table.concat(parts, "|")
end

-- Each function is called through a constant field, so both sides name it alike in their errors.
local calls = {
  find = function(F, c) return F.find(c.s, c.p, c.init, c.plain) end,
  match = function(F, c) return F.match(c.s, c.p, c.init) end,
  gmatch = function(F, c)
    local out, n = {}, 0
    for a, b, d in F.gmatch(c.s, c.p, c.init) do
      n = n + 1
      out[#out + 1] = show(true, a, b, d)
      if n >= 40 then break end
    end
    return table.concat(out, ";")
  end,
  gsub = function(F, c)
    local r = c.repl
    if r == "function" then
      local mode = c.mode
      r = function(...)
        if mode == 1 then return nil end
        if mode == 2 then return {} end
        local parts = {}
        for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
        return "<" .. table.concat(parts, ",") .. ">"
      end
    elseif r == "table" then
      r = repl_table
    end
    return F.gsub(c.s, c.p, r, c.n)
  end,
}

local function run(F, c) return show(pcall(calls[c.op], F, c)) end

local function differs(c) return run(stock, c) ~= run(ours, c) end

local function make_case()
  local c = { op = pick({ "find", "find", "match", "gmatch", "gsub", "gsub" }), s = make_subject(), p = make_pattern() }
  if random(3) == 1 then c.init = random(-8, 20) end
  if c.op == "find" and random(6) == 1 then c.plain = true end
  if c.op == "gsub" then
    local k = random(6)
    c.repl = k <= 3 and pick(replacements) or k == 4 and "table" or "function"
    c.mode = random(0, 3)
    if random(4) == 1 then c.n = random(-1, 4) end
  end
  return c
end

-- A smaller case that still differs: bytes dropped from the pattern, then from the subject.
local function shrink(c)
  local changed = true
  while changed do
    changed = false
    for _, field in ipairs({ "p", "s" }) do
      local i = 1
      while i <= #c[field] do
        local text = c[field]
        c[field] = text:sub(1, i - 1) .. text:sub(i + 1)
        if differs(c) then changed = true else c[field] = text; i = i + 1 end
      end
    end
    if c.init ~= nil then
      local init = c.init
      c.init = nil
      if differs(c) then changed = true else c.init = init end
    end
  end
  return c
end

local function describe(c)
  return string.format("%s(%q, %q, init=%s%s%s%s)\n  Lua:  %s\n  ours: %s", c.op, c.s, c.p, tostring(c.init),
    c.plain and ", plain" or "", c.repl ~= nil and (", repl=" .. string.format("%q", tostring(c.repl))) or "",
    c.n ~= nil and (", n=" .. c.n) or "", run(stock, c), run(ours, c))
end

local found = {}
for _ = 1, cases do
  local c = make_case()
  if differs(c) then
    found[#found + 1] = describe(shrink(c))
    if #found >= 10 then break end
  end
end
return string.format("%d cases, %d differences", cases, #found) .. (#found > 0 and ("\n" .. table.concat(found, "\n")) or "")
