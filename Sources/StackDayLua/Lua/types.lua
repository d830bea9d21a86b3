---@meta stackday
-- What a StackDay policy sees, annotated for lua-language-server (LuaCATS). Save it beside your
-- policies (`stackday policy types > stackday.lua`) and start a file with
--   ---@type stackday.Policy
--   return { … }
-- for completion and type checks of every role function, day view and calendar function.
-- docs/policies.md has the contract in words; this file says the same to an editor.

---A read-only view of one calendar day. The host reuses one view for every day of a range: copy
---the fields you keep (`state.last = day.ordinal`), not the table.
---@class stackday.Day
---@field year integer
---@field month integer 1 … 12
---@field day integer 1 … 31
---@field weekday integer 1 = Monday … 7 = Sunday (ISO 8601)
---@field yearDay integer 1 … 366
---@field daysInMonth integer 28 … 31
---@field ordinal integer days since 1970-01-01
---@field iso string "2026-10-05"

---The habit a policy is bound to.
---@class stackday.Habit
---@field startedOn stackday.Day
---@field goal number how much makes a day done, in the habit's unit
---@field unit string

---@alias stackday.Status "completed"|"missed"|"pending"|"skipped"|"notDue"

---One day's (or, under a quota, one period's) result, as a streak rule is told it.
---@class stackday.Outcome
---@field status stackday.Status
---@field due boolean
---@field met boolean
---@field total number the day's amount
---@field progress number 0 … 1

---A streak rule's state: yours to extend; `current` and `longest` are the figures.
---@class stackday.StreakState
---@field current integer
---@field longest integer
---@field [string] any

---"N days per period", answered by a schedule's optional `quota`.
---@class stackday.Quota
---@field times integer
---@field per "week"|"month"|integer a week, a calendar month, or a rolling window of that many days
---@field weekStart? "mon"|"sun"

---What one parameter is.
---@class stackday.Parameter
---@field type? "integer"|"number"|"string"|"boolean"|"array"|"object"
---@field required? boolean
---@field enum? any[]
---@field minimum? number
---@field maximum? number
---@field minItems? integer
---@field items? { type?: string, enum?: any[] }
---@field description? string

---A case `policy check` and `policy test` run: a schedule's (`day`, `due`, `start`), a progress
---rule's (`total`, `goal`, `progress`, `day`) or a streak rule's (`history`, `current`,
---`longest`, `start`); `params` are merged over the defaults.
---@class stackday.Case
---@field name? string shown when the case fails
---@field params? table<string, any>
---@field day? string "YYYY-MM-DD"
---@field start? string the habit's start, "YYYY-MM-DD"
---@field due? boolean
---@field total? number
---@field goal? number
---@field progress? number
---@field history? string one mark a day: Y met, N missed, - skipped, . not due, P pending
---@field current? integer
---@field longest? integer

---The table a policy file returns. It serves each role whose function it defines.
---@class stackday.Policy
---@field description? string one line for `policy list`
---@field params? table<string, any> default parameters
---@field schema? table<string, stackday.Parameter>
---@field examples? stackday.Case[] checked when the policy is installed
---@field tests? stackday.Case[] run by `policy test`
---@field validate? fun(params: table<string, any>, habit: stackday.Habit) raise an error to refuse parameters
---@field isDue? fun(day: stackday.Day, params: table<string, any>, habit: stackday.Habit): boolean
---@field quota? fun(params: table<string, any>, habit: stackday.Habit): stackday.Quota?
---@field dueRange? fun(first: integer, last: integer, params: table<string, any>, habit: stackday.Habit): true|integer[]
---@field progress? fun(total: number, goal: number, params: table<string, any>, day: stackday.Day): number
---@field progressRange? fun(totals: number[], goal: number, params: table<string, any>, first: integer): number[]
---@field initial? fun(params: table<string, any>): stackday.StreakState
---@field streak? fun(state: stackday.StreakState, day: stackday.Day, outcome: stackday.Outcome, params: table<string, any>): stackday.StreakState, string?
---@field streakRange? fun(state: stackday.StreakState, history: string, params: table<string, any>, first: integer): stackday.StreakState

---Day arithmetic, written once in the host: the same as the day views'.
---@class stackday.Calendar
calendar = {}

---@param ordinal integer a day number
---@return integer year
---@return integer month
---@return integer day
function calendar.civil(ordinal) end

---@param year integer
---@param month integer
---@param day integer a day past the month's end counts on into the next
---@return integer ordinal
function calendar.ordinal(year, month, day) end

---@param year integer
---@param month integer
---@return integer days 28 … 31
function calendar.daysInMonth(year, month) end

---@param year integer
---@return boolean
function calendar.isLeapYear(year) end

---@param ordinal integer
---@return integer weekday 1 (Monday) … 7 (Sunday)
function calendar.weekday(ordinal) end

---@param year integer
---@param month integer
---@param nth integer 1 … 5, or -1 … -5 from the end
---@param weekday integer 1 … 7
---@return integer? ordinal nil when the month has none
function calendar.nthWeekday(year, month, nth, weekday) end

---@class stackday.FilterSpec
---@field months? integer[]
---@field monthDays? integer[]
---@field yearDays? integer[]
---@field weekNumbers? integer[]
---@field weekStart? integer
---@field weekdays? { weekday: integer, nth?: integer }[]
---@field nthInMonth? boolean

---@class stackday.Filter

---@param spec stackday.FilterSpec
---@return stackday.Filter
function calendar.filter(spec) end

---@param first integer
---@param last integer
---@param filter stackday.Filter|stackday.FilterSpec
---@param anchor? integer
---@param step? integer
---@param limit? integer
---@return integer[] ordinals
function calendar.select(first, last, filter, anchor, step, limit) end

---@class stackday.Walk
---@field period "day"|"week"|"month"|"year"|"weekYear" weeks start on the filter's weekStart
---@field every? integer take every nth period (default 1)
---@field anchor? integer a day in the first period taken (default: first)
---@field positions? integer[] of each period's days that pass, only these: ±1 … ±366 (BYSETPOS)

---@param first integer
---@param last integer
---@param filter stackday.Filter|stackday.FilterSpec
---@param walk stackday.Walk
---@param limit? integer
---@return integer[] ordinals
function calendar.occurrences(first, last, filter, walk, limit) end

---Writes a line shown by `policy test`, `policy simulate --trace`, `explain --trace` and the rule
---lab, with the file, line and day of the call; in ordinary evaluation it shows nothing. At most
---20 lines a call, each cut to 200 bytes.
---@param ... any
function trace(...) end
