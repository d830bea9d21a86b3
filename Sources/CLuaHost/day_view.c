#include "internal.h"

/* Calendar arithmetic on day numbers (days since 1970-01-01, proleptic Gregorian), the day views
   the roles are called with, and the calendar functions policies may call. */

void sd_civil_from_days(long long z, long long *year, int *month, int *day) {
    z += 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    *day = (int)(doy - (153 * mp + 2) / 5 + 1);
    *month = (int)(mp < 10 ? mp + 3 : mp - 9);
    *year = yoe + era * 400 + (*month <= 2 ? 1 : 0);
}

static int is_leap(long long year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

static int month_length(long long year, int month) {
    static const int lengths[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && is_leap(year) ? 29 : lengths[month - 1];
}

/* Days since 1970-01-01 of a proleptic Gregorian date (any day number of the month: it counts on). */
static long long days_from_civil(long long year, int month, long long day) {
    year -= month <= 2;
    long long era = (year >= 0 ? year : year - 399) / 400;
    long long yoe = year - era * 400;
    long long doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
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
    long long year;
    int month, day;
    sd_civil_from_days(luaL_checkinteger(L, 1), &year, &month, &day);
    lua_pushinteger(L, year);
    lua_pushinteger(L, month);
    lua_pushinteger(L, day);
    return 3;
}

/* calendar.ordinal(year, month, day) -> days since 1970-01-01 */
static int cal_ordinal(lua_State *L) {
    lua_Integer year = luaL_checkinteger(L, 1);
    lua_Integer month = check_month(L, 2);
    lua_pushinteger(L, days_from_civil(year, (int)month, luaL_checkinteger(L, 3)));
    return 1;
}

/* calendar.daysInMonth(year, month) -> 28…31 */
static int cal_days_in_month(lua_State *L) {
    lua_Integer year = luaL_checkinteger(L, 1);
    lua_pushinteger(L, month_length(year, (int)check_month(L, 2)));
    return 1;
}

/* calendar.isLeapYear(year) -> boolean */
static int cal_is_leap_year(lua_State *L) {
    lua_pushboolean(L, is_leap(luaL_checkinteger(L, 1)));
    return 1;
}

/* calendar.weekday(ordinal) -> 1 (Monday) … 7 (Sunday) */
static int cal_weekday(lua_State *L) {
    lua_pushinteger(L, weekday_of(luaL_checkinteger(L, 1)));
    return 1;
}

/* calendar.nthWeekday(year, month, nth, weekday) -> ordinal, or nil when the month has no such day;
   nth 1…5 counts from the start of the month, -1…-5 from its end. */
static int cal_nth_weekday(lua_State *L) {
    lua_Integer year = luaL_checkinteger(L, 1);
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

void sd_push_calendar(lua_State *L) {
    static const luaL_Reg functions[] = {
        {"civil", cal_civil}, {"ordinal", cal_ordinal}, {"daysInMonth", cal_days_in_month},
        {"isLeapYear", cal_is_leap_year}, {"weekday", cal_weekday}, {"nthWeekday", cal_nth_weekday}, {NULL, NULL},
    };
    luaL_newlib(L, functions);
}

static const char *const day_keys[] = {"year", "month", "day", "weekday", "yearDay", "daysInMonth", "ordinal"};
#define DAY_KEY_COUNT 7

/* Pushes the day view's field names, so that filling a view day after day needs no string hashing.
   Returns the stack index of the first. */
static int push_day_keys(lua_State *L) {
    for (int i = 0; i < DAY_KEY_COUNT; i++) lua_pushstring(L, day_keys[i]);
    return lua_gettop(L) - DAY_KEY_COUNT + 1;
}

/* Writes the fields of the day `ordinal` into the day view at `table` (reused from day to day).
   Walking days in order, only the day-of-month fields change most days: the year and month
   fields are written when they change (`previous` remembers the last month written). */
static void fill_day(lua_State *L, int table, int keys, long long ordinal, long long *previous) {
    long long year;
    int month, day;
    sd_civil_from_days(ordinal, &year, &month, &day);
    static const int before[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    lua_Integer values[DAY_KEY_COUNT] = {
        year, month, day, weekday_of(ordinal),
        before[month - 1] + day + (month > 2 && is_leap(year) ? 1 : 0), month_length(year, month), ordinal,
    };
    long long month_key = year * 12 + month;
    int first = month_key == *previous ? 2 : 0;
    *previous = month_key;
    for (int i = first; i < DAY_KEY_COUNT; i++) {
        if (i == 5 && first == 2) continue; /* daysInMonth only changes with the month */
        lua_pushvalue(L, keys + i);
        lua_pushinteger(L, values[i]);
        lua_rawset(L, table);
    }
}

/* Pushes a new, read-only day view and returns its index; `*backing` receives the index of the
   table behind it, which `fill_day` writes (the view itself stays empty, so every write to it
   reaches the read-only guard). The field names `fill_day` needs are pushed below the view. */
static int push_day_view(lua_State *L, long long ordinal, int *keys, long long *previous, int *backing) {
    *keys = push_day_keys(L);
    sd_push_prelude(L, "make_view");
    lua_pushliteral(L, "the day view");
    lua_pushboolean(L, 1);
    lua_call(L, 2, 2);
    *backing = lua_gettop(L);
    *previous = -1;
    fill_day(L, *backing, *keys, ordinal, previous);
    return *backing - 1;
}

void sd_cursor_begin(lua_State *L, struct sd_day_cursor *cursor, long long first) {
    cursor->first = first;
    cursor->current = first;
    cursor->view = push_day_view(L, first, &cursor->keys, &cursor->previous, &cursor->backing);
}

void sd_cursor_to(lua_State *L, struct sd_day_cursor *cursor, long long ordinal) {
    if (ordinal == cursor->current) return;
    fill_day(L, cursor->backing, cursor->keys, ordinal, &cursor->previous);
    cursor->current = ordinal;
}

long long sd_cursor_move(lua_State *L, struct sd_day_cursor *cursor, int i) {
    long long ordinal = cursor->first + i;
    sd_cursor_to(L, cursor, ordinal);
    return ordinal;
}
