#include "internal.h"

#include <string.h>

/* Calendar arithmetic on day numbers (days since 1970-01-01, proleptic Gregorian), the day views
   the roles are called with, and the calendar functions policies may call. */

/* Dates and day numbers by the Gregorian calendar's 400-year cycle, which is 146,097 days long
   every time. Counting from 1 March of year 0 puts each leap day at the end of a counted year, so
   a day number splits into whole cycles, centuries (36,524 days, the last of a cycle one longer),
   four-year spans (1,461 days, the last of a century one shorter) and years of 365 days, and what
   is left is a day of a March-based year. This is the decomposition of H. Hinnant's
   "chrono-Compatible Low-Level Date Algorithms" (2013), here in terms of those spans and a table
   of month starts. */

#define DAYS_PER_CYCLE 146097LL
#define DAYS_PER_CENTURY 36524LL
#define DAYS_PER_SPAN 1461LL
#define MARCH_ZERO_TO_EPOCH 719468LL /* days from 0000-03-01 to 1970-01-01 */

/* Where each month starts in a year counted from 1 March: March, April, … January, February. */
static const int march_month_start[12] = {0, 31, 61, 92, 122, 153, 184, 214, 245, 275, 306, 337};

/* a ÷ b rounded down (b > 0). */
static long long floor_div(long long a, long long b) {
    long long q = a / b;
    return a % b < 0 ? q - 1 : q;
}

void sd_civil_from_days(long long ordinal, long long *year, int *month, int *day) {
    long long days = ordinal + MARCH_ZERO_TO_EPOCH;
    long long cycles = floor_div(days, DAYS_PER_CYCLE);
    long long rest = days - cycles * DAYS_PER_CYCLE;
    long long centuries = rest / DAYS_PER_CENTURY;
    if (centuries > 3) centuries = 3; /* the cycle's last day: 29 February of its 400th year */
    rest -= centuries * DAYS_PER_CENTURY;
    long long spans = rest / DAYS_PER_SPAN;
    rest -= spans * DAYS_PER_SPAN;
    long long years = rest / 365;
    if (years > 3) years = 3; /* a span's last day: 29 February */
    rest -= years * 365;
    /* rest is the day of the March-based year, 0 … 365; no month starts later than 31 days a month. */
    int m = (int)(rest / 31);
    while (m < 11 && march_month_start[m + 1] <= rest) m++;
    *day = (int)(rest - march_month_start[m]) + 1;
    *month = m < 10 ? m + 3 : m - 9;
    *year = cycles * 400 + centuries * 100 + spans * 4 + years + (*month <= 2 ? 1 : 0);
}

static int is_leap(long long year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

static int month_length(long long year, int month) {
    static const int lengths[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && is_leap(year) ? 29 : lengths[month - 1];
}

/* Days since 1970-01-01 of a proleptic Gregorian date (any day number of the month: it counts on). */
static long long days_from_civil(long long year, int month, long long day) {
    long long march_year = month <= 2 ? year - 1 : year;
    long long cycles = floor_div(march_year, 400);
    long long in_cycle = march_year - cycles * 400;
    /* The leap days before it in its cycle: one for every fourth year but the hundredth. */
    long long before = in_cycle * 365 + in_cycle / 4 - in_cycle / 100;
    return cycles * DAYS_PER_CYCLE + before + march_month_start[month <= 2 ? month + 9 : month - 3] + day - 1 - MARCH_ZERO_TO_EPOCH;
}

/* The days and years the calendar functions accept: far beyond any habit, and far enough inside
   the integers that no arithmetic on them can overflow. */
#define DAY_LIMIT 1000000000000LL /* ±10^12 days, about 2.7 billion years */
#define YEAR_LIMIT 3000000000LL

static lua_Integer check_day(lua_State *L, int index) {
    lua_Integer day = luaL_checkinteger(L, index);
    luaL_argcheck(L, day >= -DAY_LIMIT && day <= DAY_LIMIT, index, "a day number must be within ±1000000000000");
    return day;
}

static lua_Integer check_year(lua_State *L, int index) {
    lua_Integer year = luaL_checkinteger(L, index);
    luaL_argcheck(L, year >= -YEAR_LIMIT && year <= YEAR_LIMIT, index, "a year must be within ±3000000000");
    return year;
}

static int weekday_of(long long ordinal) { return (int)(((ordinal + 3) % 7 + 7) % 7) + 1; }

/* The calendar functions policies call: whole numbers in, whole numbers out, no state. */

static lua_Integer check_month(lua_State *L, int index) {
    lua_Integer month = luaL_checkinteger(L, index);
    luaL_argcheck(L, month >= 1 && month <= 12, index, "month must be 1 to 12");
    return month;
}

/* calendar.civil(ordinal) -> year, month, day */
static int cal_civil(lua_State *L) {
    SD_FRAME(L, "cal_civil");
    long long year;
    int month, day;
    sd_civil_from_days(check_day(L, 1), &year, &month, &day);
    lua_pushinteger(L, year);
    lua_pushinteger(L, month);
    lua_pushinteger(L, day);
    return 3;
}

/* calendar.ordinal(year, month, day) -> days since 1970-01-01 */
static int cal_ordinal(lua_State *L) {
    SD_FRAME(L, "cal_ordinal");
    lua_Integer year = check_year(L, 1);
    lua_Integer month = check_month(L, 2);
    lua_pushinteger(L, days_from_civil(year, (int)month, check_day(L, 3)));
    return 1;
}

/* calendar.daysInMonth(year, month) -> 28…31 */
static int cal_days_in_month(lua_State *L) {
    SD_FRAME(L, "cal_days_in_month");
    lua_Integer year = check_year(L, 1);
    lua_pushinteger(L, month_length(year, (int)check_month(L, 2)));
    return 1;
}

/* calendar.isLeapYear(year) -> boolean */
static int cal_is_leap_year(lua_State *L) {
    SD_FRAME(L, "cal_is_leap_year");
    lua_pushboolean(L, is_leap(luaL_checkinteger(L, 1)));
    return 1;
}

/* calendar.weekday(ordinal) -> 1 (Monday) … 7 (Sunday) */
static int cal_weekday(lua_State *L) {
    SD_FRAME(L, "cal_weekday");
    lua_pushinteger(L, weekday_of(check_day(L, 1)));
    return 1;
}

/* calendar.nthWeekday(year, month, nth, weekday) -> ordinal, or nil when the month has no such day;
   nth 1…5 counts from the start of the month, -1…-5 from its end. */
static int cal_nth_weekday(lua_State *L) {
    SD_FRAME(L, "cal_nth_weekday");
    lua_Integer year = check_year(L, 1);
    int month = (int)check_month(L, 2);
    lua_Integer nth = luaL_checkinteger(L, 3);
    lua_Integer weekday = luaL_checkinteger(L, 4);
    luaL_argcheck(L, nth != 0 && nth >= -5 && nth <= 5, 3, "nth must be 1 to 5 or -1 to -5");
    luaL_argcheck(L, weekday >= 1 && weekday <= 7, 4, "weekday must be 1 (Monday) to 7 (Sunday)");
    long long first = days_from_civil(year, month, 1);
    long long last = first + month_length(year, month) - 1;
    long long day = nth > 0 ? first + (weekday - weekday_of(first) + 7) % 7 + (nth - 1) * 7
                            : last - (weekday_of(last) - weekday + 7) % 7 + (nth + 1) * 7;
    if (day < first || day > last) {
        lua_pushnil(L);
    } else {
        lua_pushinteger(L, day);
    }
    return 1;
}

/* ---- calendar.select: the days of a range that pass calendar filters ---- */

#define SELECT_MAX_DAYS 146098 /* one 400-year cycle, both ends included: one call scans at most this */
#define FILTER_TYPE "stackday.calendar.filter"

struct day_filter {
    int has_months, has_month_days, has_year_days, has_week_numbers, has_weekdays;
    unsigned months;                     /* bit m for month m */
    unsigned char month_days[2][32];     /* [0][d]: day d; [1][d]: the d-th day from the end */
    unsigned char year_days[2][367];
    unsigned char week_numbers[2][54];
    unsigned plain_weekdays;             /* bit w: every weekday w */
    int nth_count;
    int nth_weekday[64], nth_value[64];  /* the nth weekday w of the month or year */
    int nth_in_month;
    int week_start;                      /* 1 (Monday) … 7 (Sunday) */
};

/* Reads the list `key` of the table argument `table` of `function`: whole numbers in low…high (or
   -high…-low when allowed) into flags, positive[n] for n, negative[n] for -n. Returns whether the
   list is there. */
static int read_ints(lua_State *L, const char *function, int table, const char *key, int low, int high, int allow_negative,
                     unsigned char *positive, unsigned char *negative) {
    lua_getfield(L, table, key);
    if (lua_isnil(L, -1)) { lua_pop(L, 1); return 0; }
    if (!lua_istable(L, -1)) luaL_error(L, "%s: %s must be a list of whole numbers", function, key);
    lua_Integer count = luaL_len(L, -1);
    for (lua_Integer i = 1; i <= count; i++) {
        lua_rawgeti(L, -1, i);
        int ok = 0;
        lua_Integer value = lua_tointegerx(L, -1, &ok);
        lua_pop(L, 1);
        if (!ok) luaL_error(L, "%s: %s must hold whole numbers", function, key);
        if (value >= low && value <= high) positive[value] = 1;
        else if (allow_negative && value <= -low && value >= -high) negative[-value] = 1;
        else luaL_error(L, "%s: %s holds %d, out of range", function, key, (int)value);
    }
    lua_pop(L, 1);
    return 1;
}

static void read_filter(lua_State *L, const char *function, int table, struct day_filter *filter) {
    memset(filter, 0, sizeof *filter);
    luaL_checktype(L, table, LUA_TTABLE);
    unsigned char months[13] = {0}, unused[13] = {0};
    filter->has_months = read_ints(L, function, table, "months", 1, 12, 0, months, unused);
    for (int m = 1; m <= 12; m++) if (months[m]) filter->months |= 1u << m;
    filter->has_month_days = read_ints(L, function, table, "monthDays", 1, 31, 1, filter->month_days[0], filter->month_days[1]);
    filter->has_year_days = read_ints(L, function, table, "yearDays", 1, 366, 1, filter->year_days[0], filter->year_days[1]);
    filter->has_week_numbers = read_ints(L, function, table, "weekNumbers", 1, 53, 1, filter->week_numbers[0], filter->week_numbers[1]);
    lua_getfield(L, table, "weekdays");
    if (!lua_isnil(L, -1)) {
        if (!lua_istable(L, -1)) luaL_error(L, "%s: weekdays must be a list of {weekday = 1…7, nth = ±1…53}", function);
        filter->has_weekdays = 1;
        lua_Integer count = luaL_len(L, -1);
        for (lua_Integer i = 1; i <= count; i++) {
            lua_rawgeti(L, -1, i);
            if (!lua_istable(L, -1)) luaL_error(L, "%s: weekdays must be a list of {weekday = 1…7, nth = ±1…53}", function);
            lua_getfield(L, -1, "weekday");
            lua_getfield(L, -2, "nth");
            int ok = 0;
            lua_Integer weekday = lua_tointegerx(L, -2, &ok);
            if (!ok || weekday < 1 || weekday > 7) luaL_error(L, "%s: a weekday must be 1 (Monday) to 7 (Sunday)", function);
            if (lua_isnil(L, -1)) {
                filter->plain_weekdays |= 1u << weekday;
            } else {
                lua_Integer nth = lua_tointegerx(L, -1, &ok);
                if (!ok || nth == 0 || nth < -53 || nth > 53) luaL_error(L, "%s: nth must be 1 to 53 or -1 to -53", function);
                if (filter->nth_count >= 64) luaL_error(L, "%s: at most 64 nth weekdays", function);
                filter->nth_weekday[filter->nth_count] = (int)weekday;
                filter->nth_value[filter->nth_count] = (int)nth;
                filter->nth_count++;
            }
            lua_pop(L, 3);
        }
    }
    lua_pop(L, 1);
    lua_getfield(L, table, "nthInMonth");
    filter->nth_in_month = lua_toboolean(L, -1);
    lua_pop(L, 1);
    lua_getfield(L, table, "weekStart");
    filter->week_start = lua_isnil(L, -1) ? 1 : (int)luaL_checkinteger(L, -1);
    if (filter->week_start < 1 || filter->week_start > 7) luaL_error(L, "%s: weekStart must be 1 to 7", function);
    lua_pop(L, 1);
}

static long long week_start_of(long long z, int week_start) {
    return z - (((weekday_of(z) - week_start) % 7) + 7) % 7;
}

/* The first day of week 1 of `year` (week 1 holds at least four days of the year). */
static long long first_week(long long year, int week_start) {
    long long jan1 = days_from_civil(year, 1, 1);
    long long first = week_start_of(jan1, week_start);
    return jan1 - first >= 4 ? first + 7 : first;
}

/* The week-numbering year z belongs to, given z's calendar year: the weeks of a year run from the
   first day of its week 1 up to the next year's, so a week can start in December or end in
   January. Writes the first day of that year's week 1 and of the next year's. */
static long long week_year_of(long long z, long long year, int week_start, long long *first, long long *next) {
    long long start = first_week(year, week_start), end = first_week(year + 1, week_start);
    if (z < start) {
        *first = first_week(year - 1, week_start);
        *next = start;
        return year - 1;
    }
    if (z >= end) {
        *first = end;
        *next = first_week(year + 2, week_start);
        return year + 1;
    }
    *first = start;
    *next = end;
    return year;
}

/* z's week number and the number of weeks in the week-numbering year it belongs to. */
static void week_number(long long z, long long year, int week_start, int *number, int *weeks) {
    long long first, next;
    week_year_of(z, year, week_start, &first, &next);
    *number = (int)((z - first) / 7 + 1);
    *weeks = (int)((next - first) / 7);
}

static int passes(const struct day_filter *filter, long long z, long long year, int month, int day) {
    if (filter->has_months && !(filter->months & (1u << month))) return 0;
    if (filter->has_week_numbers) {
        int number, weeks;
        week_number(z, year, filter->week_start, &number, &weeks);
        if (!filter->week_numbers[0][number] && !filter->week_numbers[1][weeks + 1 - number]) return 0;
    }
    int leap = is_leap(year);
    long long year_day = 0;
    if (filter->has_year_days || (filter->nth_count && !filter->nth_in_month)) {
        static const int before[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
        year_day = before[month - 1] + day + (month > 2 && leap ? 1 : 0);
    }
    if (filter->has_year_days) {
        int size = leap ? 366 : 365;
        if (!filter->year_days[0][year_day] && !filter->year_days[1][size + 1 - year_day]) return 0;
    }
    int length = month_length(year, month);
    if (filter->has_month_days && !filter->month_days[0][day] && !filter->month_days[1][length + 1 - day]) return 0;
    if (filter->has_weekdays) {
        int weekday = weekday_of(z);
        if (filter->plain_weekdays & (1u << weekday)) return 1;
        for (int i = 0; i < filter->nth_count; i++) {
            if (filter->nth_weekday[i] != weekday) continue;
            int nth, last;
            if (filter->nth_in_month) {
                nth = (day - 1) / 7 + 1;
                last = -((length - day) / 7 + 1);
            } else {
                int size = leap ? 366 : 365;
                nth = (int)((year_day - 1) / 7 + 1);
                last = -(int)((size - year_day) / 7 + 1);
            }
            if (filter->nth_value[i] == nth || filter->nth_value[i] == last) return 1;
        }
        return 0;
    }
    return 1;
}

/* calendar.filter(spec) -> a filter for calendar.select, read once: months (1…12), monthDays and
   yearDays (±), weekNumbers (±, weeks starting on weekStart, week 1 holding four days of the
   year), weekdays ({weekday = 1…7, nth = ±n}: without nth every such weekday; with it, the nth
   of the month when nthInMonth, else of the year). A part left out filters nothing. */
static int cal_filter(lua_State *L) {
    SD_FRAME(L, "cal_filter");
    struct day_filter *filter = (struct day_filter *)lua_newuserdatauv(L, sizeof(struct day_filter), 0);
    read_filter(L, "calendar.filter", 1, filter);
    luaL_setmetatable(L, FILTER_TYPE);
    return 1;
}

/* The date after year-month-day, without the civil-date computation. */
static void next_civil_day(long long *year, int *month, int *day) {
    if (*day < 28 || *day < month_length(*year, *month)) {
        (*day)++;
        return;
    }
    *day = 1;
    if (++*month > 12) {
        *month = 1;
        (*year)++;
    }
}

/* The arguments every scan of `function` starts with: its first and last day, and its filter (a
   calendar.filter, or a spec table read into `parsed`). */
static const struct day_filter *scan_arguments(lua_State *L, const char *function, lua_Integer *first, lua_Integer *last,
                                               struct day_filter *parsed) {
    *first = check_day(L, 1);
    *last = check_day(L, 2);
    const struct day_filter *filter = (const struct day_filter *)luaL_testudata(L, 3, FILTER_TYPE);
    if (filter != NULL) return filter;
    read_filter(L, function, 3, parsed);
    return parsed;
}

/* Days a select answer collects before it writes them into its table. */
#define SELECT_BATCH 1024

/* calendar.select(first, last, filter [, anchor, step, limit]) -> the ordinals of [first, last]
   (one 400-year cycle at most) that pass the filter (from calendar.filter, or a spec table), in
   order; with `step`, only days a whole number of steps from `anchor`; at most `limit` of them.
   The scan counts against the instruction budget, a day an instruction. */
static int cal_select(lua_State *L) {
    SD_FRAME(L, "cal_select");
    lua_Integer first, last;
    struct day_filter parsed;
    const struct day_filter *filter = scan_arguments(L, "calendar.select", &first, &last, &parsed);
    lua_Integer step = luaL_optinteger(L, 5, 1);
    luaL_argcheck(L, step >= 1, 5, "step must be 1 or more");
    lua_Integer anchor = lua_isnoneornil(L, 4) ? first : check_day(L, 4);
    lua_Integer limit = luaL_optinteger(L, 6, LUA_MAXINTEGER);
    if (last < first || limit < 1) {
        lua_newtable(L);
        return 1;
    }
    luaL_argcheck(L, last - first < SELECT_MAX_DAYS, 2, "a range of at most 400 years");
    sd_charge(L, (last - first) / step + 1);
    long long offset = (anchor - first) % step; /* |anchor - first| ≤ 2·10^12: no overflow */
    if (offset < 0) offset += step;
    if (offset > last - first) {
        lua_newtable(L);
        return 1;
    }
    /* The days found wait here as offsets from `first` (a range is under 400 years) and go into
       the answer a batch at a time, so that an answer of up to a batch is made at its size once
       rather than grown by doubling. */
    int32_t batch[SELECT_BATCH];
    int pending = 0, made = 0;
    lua_Integer count = 0;
    long long z = first + offset;
    long long year;
    int month, day;
    sd_civil_from_days(z, &year, &month, &day);
    for (;;) {
        int found = passes(filter, z, year, month, day);
        if (found) batch[pending++] = (int32_t)(z - first);
        int done = (found && count + pending >= limit) || step > last - z; /* the next step passes the range (and z + step could overflow) */
        if (pending == SELECT_BATCH || (done && pending > 0) || (done && !made)) {
            if (!made) {
                lua_createtable(L, pending, 0);
                made = 1;
            }
            for (int i = 0; i < pending; i++) {
                lua_pushinteger(L, first + batch[i]);
                lua_rawseti(L, -2, ++count);
            }
            pending = 0;
        }
        if (done) break;
        z += step;
        if (step != 1) {
            sd_civil_from_days(z, &year, &month, &day);
        } else {
            next_civil_day(&year, &month, &day);
        }
    }
    return 1;
}

/* ---- calendar.occurrences: a range walked period by period ---- */

/* The longest period: a week-numbering year of 53 weeks. */
#define PERIOD_MAX_DAYS 371
/* Positions within a period (RFC 5545's BYSETPOS): ±1 … ±366. */
#define POSITION_LIMIT 366

enum period_kind { PERIOD_DAY, PERIOD_WEEK, PERIOD_MONTH, PERIOD_YEAR, PERIOD_WEEK_YEAR };

/* How a range is walked: the kind of period, every how many periods one is kept (counted from
   the one holding `anchor`), and which of a kept period's days that pass the filter are taken. */
struct period_walk {
    enum period_kind kind;
    lua_Integer every;
    lua_Integer anchor;
    int week_start;
    int has_positions;
    unsigned char from_start[POSITION_LIMIT + 1]; /* [n]: the period's nth day that passes */
    unsigned char from_end[POSITION_LIMIT + 1];   /* [n]: its nth from the last */
};

/* The period holding z: its first and last day, and its number counted in periods (consecutive
   periods have consecutive numbers). */
static void period_around(const struct period_walk *walk, long long z, long long *first, long long *last, long long *number) {
    long long year;
    int month, day;
    switch (walk->kind) {
    case PERIOD_DAY:
        *first = *last = *number = z;
        return;
    case PERIOD_WEEK:
        *first = week_start_of(z, walk->week_start);
        *last = *first + 6;
        *number = floor_div(*first, 7);
        return;
    default:
        break;
    }
    sd_civil_from_days(z, &year, &month, &day);
    if (walk->kind == PERIOD_MONTH) {
        *first = days_from_civil(year, month, 1);
        *last = *first + month_length(year, month) - 1;
        *number = year * 12 + month - 1;
    } else if (walk->kind == PERIOD_YEAR) {
        *first = days_from_civil(year, 1, 1);
        *last = days_from_civil(year, 12, 31);
        *number = year;
    } else {
        long long next;
        *number = week_year_of(z, year, walk->week_start, first, &next);
        *last = next - 1;
    }
}

static void read_walk(lua_State *L, int table, lua_Integer first, const struct day_filter *filter, struct period_walk *walk) {
    static const char *const kinds[] = {"day", "week", "month", "year", "weekYear"};
    memset(walk, 0, sizeof *walk);
    luaL_checktype(L, table, LUA_TTABLE);
    lua_getfield(L, table, "period");
    const char *kind = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
    int known = 0;
    for (int i = 0; i < (int)(sizeof kinds / sizeof kinds[0]); i++) {
        if (strcmp(kind, kinds[i]) == 0) {
            walk->kind = (enum period_kind)i;
            known = 1;
        }
    }
    if (!known) luaL_error(L, "calendar.occurrences: period must be \"day\", \"week\", \"month\", \"year\" or \"weekYear\"");
    lua_pop(L, 1);
    lua_getfield(L, table, "every");
    int ok = 1;
    walk->every = lua_isnil(L, -1) ? 1 : lua_tointegerx(L, -1, &ok);
    if (!ok || walk->every < 1) luaL_error(L, "calendar.occurrences: every must be a whole number, 1 or more");
    lua_pop(L, 1);
    lua_getfield(L, table, "anchor");
    walk->anchor = lua_isnil(L, -1) ? first : lua_tointegerx(L, -1, &ok);
    if (!ok || walk->anchor < -DAY_LIMIT || walk->anchor > DAY_LIMIT) {
        luaL_error(L, "calendar.occurrences: anchor must be a day number within ±1000000000000");
    }
    lua_pop(L, 1);
    walk->week_start = filter->week_start;
    walk->has_positions = read_ints(L, "calendar.occurrences", table, "positions", 1, POSITION_LIMIT, 1, walk->from_start, walk->from_end);
}

/* calendar.occurrences(first, last, filter, walk [, limit]) -> the ordinals of [first, last] (one
   400-year cycle at most), in order, that a recurrence gives: the range's periods (walk.period:
   "day", "week" starting on the filter's weekStart, "month", "year", or "weekYear", the weeks of
   a week-numbering year) are taken every walk.every from the one holding walk.anchor (default:
   every period); in each period taken, the days that pass the filter, and of those only the
   walk.positions (±n: the nth from the period's start or end) when given. A period is expanded
   whole, so positions count from its own first and last day even where the range cuts it. At
   most `limit` days. Each day of a period taken counts a step against the instruction budget,
   each period passed over one. */
static int cal_occurrences(lua_State *L) {
    SD_FRAME(L, "cal_occurrences");
    lua_Integer first, last;
    struct day_filter parsed;
    const struct day_filter *filter = scan_arguments(L, "calendar.occurrences", &first, &last, &parsed);
    struct period_walk walk;
    read_walk(L, 4, first, filter, &walk);
    lua_Integer limit = luaL_optinteger(L, 5, LUA_MAXINTEGER);
    lua_newtable(L);
    if (last < first || limit < 1) return 1;
    luaL_argcheck(L, last - first < SELECT_MAX_DAYS, 2, "a range of at most 400 years");
    long long anchor_first, anchor_last, anchor_number;
    period_around(&walk, walk.anchor, &anchor_first, &anchor_last, &anchor_number);
    short passed[PERIOD_MAX_DAYS];
    lua_Integer count = 0;
    long long z = first;
    while (z <= last && count < limit) {
        long long period_first, period_last, number;
        period_around(&walk, z, &period_first, &period_last, &number);
        long long apart = (number - anchor_number) % walk.every;
        if (apart != 0) {
            sd_charge(L, 1);
            z = period_last + 1;
            continue;
        }
        sd_charge(L, period_last - period_first + 1);
        int found = 0;
        long long year;
        int month, day;
        sd_civil_from_days(period_first, &year, &month, &day);
        for (long long d = period_first;; d++) {
            if (passes(filter, d, year, month, day)) passed[found++] = (short)(d - period_first);
            if (d == period_last) break;
            next_civil_day(&year, &month, &day);
        }
        for (int i = 0; i < found && count < limit; i++) {
            if (walk.has_positions && !(i + 1 <= POSITION_LIMIT && walk.from_start[i + 1])
                && !(found - i <= POSITION_LIMIT && walk.from_end[found - i])) continue;
            long long d = period_first + passed[i];
            if (d < first || d > last) continue;
            lua_pushinteger(L, d);
            lua_rawseti(L, -2, ++count);
        }
        z = period_last + 1;
    }
    return 1;
}

#ifdef SD_TEST_HOOKS
/* calendar.test_spin() (debug builds, STACKDAY_TEST_SPIN=1 only): a C loop that never returns
   and allocates nothing, so neither the instruction hook nor the CPU timer's hook can end it;
   what tests of the hard deadline run. */
static int cal_test_spin(lua_State *L) {
    SD_FRAME(L, "cal_test_spin");
    volatile unsigned long long spins = 0;
    for (;;) spins++;
    return 0;
}
#endif

void sd_push_calendar(lua_State *L) {
    static const luaL_Reg functions[] = {
        {"civil", cal_civil}, {"ordinal", cal_ordinal}, {"daysInMonth", cal_days_in_month},
        {"isLeapYear", cal_is_leap_year}, {"weekday", cal_weekday}, {"nthWeekday", cal_nth_weekday},
        {"filter", cal_filter}, {"select", cal_select}, {"occurrences", cal_occurrences}, {NULL, NULL},
    };
    /* Filters are opaque to policies: their metatable is the registry's, never reachable from Lua. */
    if (luaL_newmetatable(L, FILTER_TYPE)) {
        lua_pushliteral(L, "calendar filter");
        lua_setfield(L, -2, "__metatable");
    }
    lua_pop(L, 1);
    luaL_newlib(L, functions);
#ifdef SD_TEST_HOOKS
    if (sd_test_spin_enabled()) {
        lua_pushcfunction(L, cal_test_spin);
        lua_setfield(L, -2, "test_spin");
    }
#endif
}

static const char *const day_keys[] = {"year", "month", "day", "weekday", "yearDay", "daysInMonth", "ordinal"};
#define DAY_KEY_COUNT 7

/* Pushes the day view's field names, so that filling a view day after day needs no string hashing.
   Returns the stack index of the first. */
static int push_day_keys(lua_State *L) {
    SD_FRAME(L, "push_day_keys");
    for (int i = 0; i < DAY_KEY_COUNT; i++) lua_pushstring(L, day_keys[i]);
    return lua_gettop(L) - DAY_KEY_COUNT + 1;
}

/* Writes one field of the view's backing table: its name (pushed once, at `keys + key`) and value. */
static void set_field(lua_State *L, int table, int keys, int key, lua_Integer value) {
    lua_pushvalue(L, keys + key);
    lua_pushinteger(L, value);
    lua_rawset(L, table);
}

/* Writes the fields of the day `ordinal` into the cursor's backing table (reused from day to day).
   Walking days in order, the day after the last one written inside its month changes only the
   day of the month, the weekday, the day of the year and the number: those four fields are
   written from the last day's, with no calendar arithmetic; any other move writes every field
   from the date. */
static void fill_day(lua_State *L, struct sd_day_cursor *cursor, long long ordinal) {
    struct sd_day_fields *at = &cursor->at;
    int table = cursor->backing, keys = cursor->keys;
    if (cursor->written && ordinal == at->ordinal + 1 && at->day < at->days_in_month) {
        at->ordinal = ordinal;
        at->day++;
        at->weekday = at->weekday == 7 ? 1 : at->weekday + 1;
        at->year_day++;
        set_field(L, table, keys, 2, at->day);
        set_field(L, table, keys, 3, at->weekday);
        set_field(L, table, keys, 4, at->year_day);
        set_field(L, table, keys, 6, ordinal);
        return;
    }
    static const int before[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    sd_civil_from_days(ordinal, &at->year, &at->month, &at->day);
    at->ordinal = ordinal;
    at->weekday = weekday_of(ordinal);
    at->year_day = before[at->month - 1] + at->day + (at->month > 2 && is_leap(at->year) ? 1 : 0);
    at->days_in_month = month_length(at->year, at->month);
    cursor->written = 1;
    lua_Integer values[DAY_KEY_COUNT] = {at->year, at->month, at->day, at->weekday, at->year_day, at->days_in_month, ordinal};
    for (int i = 0; i < DAY_KEY_COUNT; i++) set_field(L, table, keys, i, values[i]);
}

/* Pushes a new, read-only day view for the cursor's first day: its field names (so that filling
   the view day after day needs no string hashing), the view, and the table behind it, which
   `fill_day` writes (the view itself stays empty, so every write to it reaches the read-only
   guard). The prelude's make_view is on top of the stack and is taken off. */
static void push_day_view(lua_State *L, struct sd_day_cursor *cursor) {
    int make_view = lua_gettop(L);
    cursor->keys = push_day_keys(L);
    lua_pushvalue(L, make_view);
    lua_remove(L, make_view);
    cursor->keys -= 1;
    lua_pushliteral(L, "the day view");
    lua_pushboolean(L, 1);
    lua_call(L, 2, 2);
    cursor->backing = lua_gettop(L);
    cursor->view = cursor->backing - 1;
    cursor->written = 0;
    fill_day(L, cursor, cursor->first);
}

void sd_cursor_begin(lua_State *L, struct sd_day_cursor *cursor, long long first) {
    cursor->first = first;
    cursor->current = first;
    cursor->host = sd_host_of(L);
    push_day_view(L, cursor);
}

void sd_cursor_to(lua_State *L, struct sd_day_cursor *cursor, long long ordinal) {
    /* The day a trace() line of this call is about. */
    if (cursor->host) cursor->host->day = ordinal;
    if (ordinal == cursor->current) return;
    fill_day(L, cursor, ordinal);
    cursor->current = ordinal;
}

long long sd_cursor_move(lua_State *L, struct sd_day_cursor *cursor, int i) {
    long long ordinal = cursor->first + i;
    sd_cursor_to(L, cursor, ordinal);
    return ordinal;
}
