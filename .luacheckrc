-- luacheck's view of the policy sandbox (docs/policies.md, "The sandbox"): only what a policy can
-- reach is a global, so a policy that reaches for io, os or math.random is warned of here before
-- the host refuses it. Role functions have fixed arguments: an unused one is no mistake.
std = "stackday"
stds.stackday = {
  read_globals = {
    "assert", "error", "ipairs", "next", "pairs", "pcall", "xpcall", "rawequal", "rawget", "rawlen", "rawset", "select",
    "setmetatable", "getmetatable", "tonumber", "tostring", "type", "load", "_VERSION", "_G",
    string = { other_fields = true },
    table = { other_fields = true },
    utf8 = { other_fields = true },
    math = { fields = {
      "abs", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log", "max", "maxinteger", "min", "mininteger", "modf",
      "pi", "rad", "sin", "sqrt", "tan", "tointeger", "type", "ult", "acos", "asin", "atan",
    } },
    calendar = { fields = { "civil", "ordinal", "daysInMonth", "isLeapYear", "weekday", "nthWeekday", "filter", "select", "occurrences" } },
    "trace",
  },
}
unused_args = false
max_line_length = false
-- The host's own Lua (the prelude runs before the sandbox exists) and the editor annotations.
exclude_files = { "Sources/StackDayLua/Lua/prelude.lua", "Sources/StackDayLua/Lua/types.lua", ".build/**" }
