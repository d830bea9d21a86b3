#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Binding a policy to a habit, and the roles: schedule (and its quota), progress and streak. */

/* Raises an error about a wrong answer, marked so the host reports it as one. `format` has two
   %s: what was returned, and where the day is named (" PREP YYYY-MM-DD", left out for a call
   about no real day, as a progress example without one). When the call is being run again to
   find it, the message begins with the line of the policy's return that gave the answer
   (`chunk:line: `, as Lua writes its own errors). */
static int answer_error(lua_State *L, const sd_days *args, const char *format, const char *what, const char *prep, long long ordinal)
    __attribute__((format(printf, 3, 0)));
static int answer_error(lua_State *L, const sd_days *args, const char *format, const char *what, const char *prep, long long ordinal) {
    char day[64] = "";
    if (!(args && args->undated)) {
        long long year;
        int month, dom;
        sd_civil_from_days(ordinal, &year, &month, &dom);
        snprintf(day, sizeof day, " %s %04lld-%02d-%02d", prep, year, month, dom);
    }
    char text[320];
    snprintf(text, sizeof text, format, what, day);
    sd_host *host = sd_host_of(L);
    if (host && host->diagnose && host->return_line > 0) {
        char located[480];
        const char *source = host->diag_source[0] == '@' || host->diag_source[0] == '=' ? host->diag_source + 1 : host->diag_source;
        snprintf(located, sizeof located, "%s:%d: %s", source, host->return_line, text);
        return sd_raise(L, SD_ERROR_ANSWER, located);
    }
    return sd_raise(L, SD_ERROR_ANSWER, text);
}

struct sd_bind_args {
    int policy;
    const char *parameters;
    size_t parameters_length;
    int started_ordinal;
    double goal;
    const char *unit;
    int reference;
};

static int op_bind(lua_State *L, void *raw) {
    SD_FRAME(L, "op_bind");
    struct sd_bind_args *args = (struct sd_bind_args *)raw;
    sd_push_prelude(L, "bind");
    lua_rawgeti(L, LUA_REGISTRYINDEX, args->policy);
    lua_pushlstring(L, args->parameters, args->parameters_length);
    lua_createtable(L, 0, 3);
    int habit = lua_gettop(L);
    struct sd_day_cursor started;
    sd_push_prelude(L, "make_view");
    sd_cursor_begin(L, &started, args->started_ordinal);
    lua_pushvalue(L, started.view);
    lua_setfield(L, habit, "startedOn");
    lua_settop(L, habit);
    lua_pushnumber(L, args->goal);
    lua_setfield(L, habit, "goal");
    lua_pushstring(L, args->unit);
    lua_setfield(L, habit, "unit");
    lua_call(L, 3, 1);
    args->reference = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

int sd_bind(sd_host *host, int policy, const char *parameters, size_t parameters_length,
            int started_ordinal, double goal, const char *unit, sd_error *error) {
    struct sd_bind_args args = {policy, parameters, parameters_length, started_ordinal, goal, unit, 0};
    if (sd_protected(host, op_bind, &args, error) != 0) return 0;
    return args.reference;
}

/* Pushes the binding's role function, a fresh copy of its parameters, its habit view and the
   role's range form (nil when the policy has none or `use_range` is 0); returns the stack index
   of the function. */
static int push_call_parts(lua_State *L, int binding, const char *role, int use_range) {
    sd_push_prelude(L, "call_parts");
    lua_rawgeti(L, LUA_REGISTRYINDEX, binding);
    lua_pushstring(L, role);
    lua_pushboolean(L, use_range);
    lua_call(L, 3, 4);
    int function = lua_gettop(L) - 3;
    /* Run again to find a wrong answer's return: the function whose returns are watched. */
    sd_diagnose_target(L, lua_isnil(L, function + 3) ? function : function + 3);
    return function;
}

/* Runs a role call; when its answer is of the wrong kind, runs it once more watching the policy's
   returns (policies are pure: it answers the same), so that the error names the line of the
   return that gave it. */
static int run_role(sd_host *host, sd_op op, sd_days *days, sd_error *error) {
    int status = sd_protected(host, op, days, error);
    if (status == 0 || error->kind != SD_ERROR_ANSWER || host->diagnose) return status;
    sd_error again = {0, NULL};
    /* The same call again: what it traces was traced the first time. */
    int tracing = host->tracing;
    host->tracing = 0;
    host->diagnose = 1;
    host->return_line = 0;
    host->diag_line_defined = -1;
    host->diag_source[0] = 0;
    free(days->explain_json);
    days->explain_json = NULL;
    int rerun = sd_protected(host, op, days, &again);
    host->diagnose = 0;
    host->tracing = tracing;
    host->return_line = 0;
    if (rerun != 0 && again.kind == SD_ERROR_ANSWER && again.message) {
        sd_error_clear(error);
        *error = again;
    } else {
        sd_error_clear(&again);
    }
    return status;
}

static int op_schedule(lua_State *L, void *raw) {
    SD_FRAME(L, "op_schedule");
    sd_days *args = (sd_days *)raw;
    int function = push_call_parts(L, args->binding, "isDue", args->use_range);
    int params = function + 1, habit = function + 2, range = function + 3;
    if (!lua_isnil(L, range)) {
        /* dueRange(first, last, params, habit): true for every day, or a list of due day numbers. */
        long long last = (long long)args->first_ordinal + args->count - 1;
        lua_pushvalue(L, range);
        lua_pushinteger(L, args->first_ordinal);
        lua_pushinteger(L, last);
        lua_pushvalue(L, params);
        lua_pushvalue(L, habit);
        lua_call(L, 4, 1);
        if (lua_type(L, -1) == LUA_TBOOLEAN && lua_toboolean(L, -1)) {
            memset(args->due_out, 1, (size_t)args->count);
            return 0;
        }
        if (!lua_istable(L, -1)) return answer_error(L, args, "dueRange returned %s%s; expected true or a list of day numbers", luaL_typename(L, -1), "from", args->first_ordinal);
        memset(args->due_out, 0, (size_t)args->count);
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            int isnum = 0;
            lua_Integer ordinal = lua_tointegerx(L, -1, &isnum);
            if (!isnum || ordinal < args->first_ordinal || ordinal > last) {
                return answer_error(L, args, "dueRange returned %s in the list%s; expected day numbers inside the range",
                                    isnum ? "a day outside the range" : luaL_typename(L, -1), "for the range from", args->first_ordinal);
            }
            args->due_out[ordinal - args->first_ordinal] = 1;
            lua_pop(L, 1);
        }
        return 0;
    }
    struct sd_day_cursor cursor;
    sd_push_prelude(L, "make_view");
    sd_cursor_begin(L, &cursor, args->first_ordinal);
    for (int i = 0; i < args->count; i++) {
        long long ordinal = sd_cursor_move(L, &cursor, i);
        lua_pushvalue(L, function);
        lua_pushvalue(L, cursor.view);
        lua_pushvalue(L, params);
        lua_pushvalue(L, habit);
        sd_cursor_next_call(&cursor);
        lua_call(L, 3, 1);
        if (lua_type(L, -1) != LUA_TBOOLEAN) {
            return answer_error(L, args, "isDue returned %s%s; expected true or false", luaL_typename(L, -1), "for", ordinal);
        }
        args->due_out[i] = (unsigned char)lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    return 0;
}

int sd_schedule(sd_host *host, sd_days *days, sd_error *error) { return run_role(host, op_schedule, days, error); }

struct sd_quota_args {
    int binding;
    int times, kind, days;
};

static int op_quota(lua_State *L, void *raw) {
    SD_FRAME(L, "op_quota");
    struct sd_quota_args *args = (struct sd_quota_args *)raw;
    sd_push_prelude(L, "quota");
    lua_rawgeti(L, LUA_REGISTRYINDEX, args->binding);
    lua_call(L, 1, 3);
    args->times = (int)lua_tointeger(L, -3);
    args->kind = (int)lua_tointeger(L, -2);
    args->days = (int)lua_tointeger(L, -1);
    return 0;
}

int sd_quota(sd_host *host, int binding, int *times, int *kind, int *days, sd_error *error) {
    struct sd_quota_args args = {binding, 0, 0, 0};
    if (sd_protected(host, op_quota, &args, error) != 0) return -1;
    *times = args.times;
    *kind = args.kind;
    *days = args.days;
    return 0;
}

/* Checks the answer of a progress (or, with `group`, a group) call on top of the stack for day
   `i`, stores it and pops it; raises otherwise. */
static int check_share(lua_State *L, sd_days *args, int i, int group) {
    long long ordinal = (long long)args->first_ordinal + i;
    const char *wrong = NULL;
    double value = 0;
    if (lua_type(L, -1) != LUA_TNUMBER) {
        wrong = luaL_typename(L, -1);
    } else {
        value = lua_tonumber(L, -1);
        if (isnan(value)) wrong = "NaN";
        else if (isinf(value)) wrong = value > 0 ? "infinity" : "-infinity";
        else if (value < 0) wrong = "a negative number";
    }
    if (wrong) {
        return answer_error(L, args, group ? "group returned %s%s; expected a number from 0 to 1" : "progress returned %s%s; expected a number from 0 to 1",
                            wrong, "for", ordinal);
    }
    args->progress_out[i] = value > 1 ? 1 : value;
    lua_pop(L, 1);
    return 0;
}

static int check_progress(lua_State *L, sd_days *args, int i) { return check_share(L, args, i, 0); }

static int op_progress(lua_State *L, void *raw) {
    SD_FRAME(L, "op_progress");
    sd_days *args = (sd_days *)raw;
    int function = push_call_parts(L, args->binding, "progress", args->use_range);
    int params = function + 1, habit = function + 2, range = function + 3;
    lua_getfield(L, habit, "goal");
    int goal = lua_gettop(L);
    if (!lua_isnil(L, range)) {
        /* progressRange(totals, goal, params, first): a list of progress values, one per day. */
        lua_pushvalue(L, range);
        lua_createtable(L, args->count, 0);
        for (int i = 0; i < args->count; i++) {
            lua_pushnumber(L, args->totals[i]);
            lua_rawseti(L, -2, i + 1);
        }
        lua_pushvalue(L, goal);
        lua_pushvalue(L, params);
        lua_pushinteger(L, args->first_ordinal);
        sd_next_call(L);
        lua_call(L, 4, 1);
        if (!lua_istable(L, -1)) return answer_error(L, args, "progressRange returned %s%s; expected a list of numbers", luaL_typename(L, -1), "from", args->first_ordinal);
        int list = lua_gettop(L);
        for (int i = 0; i < args->count; i++) {
            lua_rawgeti(L, list, i + 1);
            if (check_progress(L, args, i) != 0) return 0;
        }
        return 0;
    }
    struct sd_day_cursor cursor;
    sd_push_prelude(L, "make_view");
    sd_cursor_begin(L, &cursor, args->first_ordinal);
    for (int i = 0; i < args->count; i++) {
        sd_cursor_move(L, &cursor, i);
        lua_pushvalue(L, function);
        lua_pushnumber(L, args->totals[i]);
        lua_pushvalue(L, goal);
        lua_pushvalue(L, params);
        lua_pushvalue(L, cursor.view);
        sd_cursor_next_call(&cursor);
        lua_call(L, 4, 1);
        check_progress(L, args, i);
    }
    return 0;
}

int sd_progress(sd_host *host, sd_days *days, sd_error *error) { return run_role(host, op_progress, days, error); }

static const char *const status_names[] = {"completed", "missed", "pending", "skipped", "notDue"};

/* group(members, params, day) once a day: `members` a fresh list of the members' days, each
   {name, status, progress, total, goal, unit}, in the group's order. */
static int op_group(lua_State *L, void *raw) {
    SD_FRAME(L, "op_group");
    sd_days *args = (sd_days *)raw;
    int function = push_call_parts(L, args->binding, "group", 0);
    int params = function + 1;
    struct sd_day_cursor cursor;
    sd_push_prelude(L, "make_view");
    sd_cursor_begin(L, &cursor, args->first_ordinal);
    int m = args->members;
    for (int i = 0; i < args->count; i++) {
        sd_cursor_move(L, &cursor, i);
        lua_pushvalue(L, function);
        lua_createtable(L, m, 0);
        for (int j = 0; j < m; j++) {
            size_t at = (size_t)i * (size_t)m + (size_t)j;
            unsigned char status = args->status[at] <= SD_NOT_DUE ? args->status[at] : SD_NOT_DUE;
            lua_createtable(L, 0, 6);
            lua_pushstring(L, args->member_names[j]);
            lua_setfield(L, -2, "name");
            lua_pushstring(L, status_names[status]);
            lua_setfield(L, -2, "status");
            lua_pushnumber(L, args->progress[at]);
            lua_setfield(L, -2, "progress");
            lua_pushnumber(L, args->totals[at]);
            lua_setfield(L, -2, "total");
            lua_pushnumber(L, args->goals[at]);
            lua_setfield(L, -2, "goal");
            lua_pushstring(L, args->member_units[j]);
            lua_setfield(L, -2, "unit");
            lua_rawseti(L, -2, j + 1);
        }
        lua_pushvalue(L, params);
        lua_pushvalue(L, cursor.view);
        sd_cursor_next_call(&cursor);
        lua_call(L, 3, 1);
        check_share(L, args, i, 1);
    }
    return 0;
}

int sd_group(sd_host *host, sd_days *days, sd_error *error) { return run_role(host, op_group, days, error); }

/* remind(day, progress, params), an optional function of a schedule or progress policy: whether
   a reminder goes out on a day still open. A policy without it has no say (2). */
static int op_remind(lua_State *L, void *raw) {
    SD_FRAME(L, "op_remind");
    sd_days *args = (sd_days *)raw;
    sd_push_prelude(L, "defines");
    lua_rawgeti(L, LUA_REGISTRYINDEX, args->binding);
    lua_pushstring(L, "remind");
    lua_call(L, 2, 1);
    int defined = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (!defined) {
        args->due_out[0] = 2;
        return 0;
    }
    int function = push_call_parts(L, args->binding, "remind", 0);
    int params = function + 1;
    struct sd_day_cursor cursor;
    sd_push_prelude(L, "make_view");
    sd_cursor_begin(L, &cursor, args->first_ordinal);
    sd_cursor_move(L, &cursor, 0);
    lua_pushvalue(L, function);
    lua_pushvalue(L, cursor.view);
    lua_pushnumber(L, args->totals[0]);
    lua_pushvalue(L, params);
    sd_next_call(L);
    lua_call(L, 3, 1);
    if (!lua_isboolean(L, -1)) {
        return answer_error(L, args, "remind returned %s%s; expected true or false", luaL_typename(L, -1), "for", args->first_ordinal);
    }
    args->due_out[0] = lua_toboolean(L, -1) ? 1 : 0;
    return 0;
}

int sd_remind(sd_host *host, sd_days *days, sd_error *error) { return run_role(host, op_remind, days, error); }

static int state_field(lua_State *L, const sd_days *args, int state, const char *name, long long ordinal, long long *out) {
    lua_getfield(L, state, name);
    int isnum = 0;
    lua_Integer value = lua_tointegerx(L, -1, &isnum);
    if (!isnum || value < 0) {
        return answer_error(L, args, "streak returned a state whose %s is not a whole number >= 0%s", name, "on", ordinal);
    }
    *out = value;
    lua_pop(L, 1);
    return 0;
}

static int op_streak(lua_State *L, void *raw) {
    SD_FRAME(L, "op_streak");
    sd_days *args = (sd_days *)raw;
    /* The fold holds about 30 values at its deepest (its parts, the outcome's keys and status
       names, the explain lists, one call's arguments): more than LUA_MINSTACK guarantees. */
    luaL_checkstack(L, 48, "the streak fold");
    int function = push_call_parts(L, args->binding, "streak", args->use_range);
    int params = function + 1, range = function + 3;
    sd_push_prelude(L, "initial_state");
    lua_rawgeti(L, LUA_REGISTRYINDEX, args->binding);
    lua_pushvalue(L, params);
    lua_call(L, 2, 1);
    if (args->carry) {
        lua_pushinteger(L, args->carry[0]);
        lua_setfield(L, -2, "current");
        lua_pushinteger(L, args->carry[1]);
        lua_setfield(L, -2, "longest");
    }
    if (!lua_isnil(L, range) && args->ordinals == NULL && args->step_current == NULL && !args->explain) {
        /* streakRange(state, history, params, first): the history has one mark a day (Y met, N missed,
           P pending, - skipped, . not due), the same marks as the examples. */
        static const char marks[] = {'Y', 'N', 'P', '-', '.'};
        luaL_Buffer buffer;
        int state = lua_gettop(L);
        lua_pushvalue(L, range);
        lua_pushvalue(L, state);
        char *history = luaL_buffinitsize(L, &buffer, (size_t)args->count);
        for (int i = 0; i < args->count; i++) history[i] = marks[args->status[i] <= SD_NOT_DUE ? args->status[i] : SD_NOT_DUE];
        luaL_pushresultsize(&buffer, (size_t)args->count);
        lua_pushvalue(L, params);
        lua_pushinteger(L, args->first_ordinal);
        lua_call(L, 4, 1);
        long long last = (long long)args->first_ordinal + args->count - 1;
        if (!lua_istable(L, -1)) return answer_error(L, args, "streakRange returned %s%s; expected the state table", luaL_typename(L, -1), "for the days up to", last);
        int result = lua_gettop(L);
        state_field(L, args, result, "current", last, &args->current);
        state_field(L, args, result, "longest", last, &args->longest);
        return 0;
    }
    /* The state is replaced each day by what the rule returns. */
    int state = lua_gettop(L);
    struct sd_day_cursor cursor;
    sd_push_prelude(L, "make_view");
    sd_cursor_begin(L, &cursor, args->first_ordinal);
    sd_push_prelude(L, "make_view");
    lua_pushliteral(L, "the outcome");
    lua_pushboolean(L, 0);
    lua_call(L, 2, 2);
    int outcome_fields = lua_gettop(L);
    int outcome = outcome_fields - 1;
    static const char *const outcome_keys[] = {"status", "due", "met", "total", "progress"};
    int okeys = lua_gettop(L) + 1;
    for (int i = 0; i < 5; i++) lua_pushstring(L, outcome_keys[i]);
    int status_keys = lua_gettop(L) + 1;
    for (int i = 0; i <= SD_NOT_DUE; i++) lua_pushstring(L, status_names[i]);
    args->current = args->carry ? args->carry[0] : 0;
    args->longest = args->carry ? args->carry[1] : 0;
    int states = 0, whys = 0;
    if (args->explain) {
        lua_createtable(L, args->count + 1, 0);
        states = lua_gettop(L);
        lua_createtable(L, args->count, 0);
        whys = lua_gettop(L);
        if (args->keep_from == 0) {
            sd_push_prelude(L, "state_json");
            lua_pushvalue(L, state);
            lua_call(L, 1, 1);
            lua_rawseti(L, states, 1);
        }
    }
    for (int i = 0; i < args->count; i++) {
        long long ordinal = args->ordinals ? args->ordinals[i] : (long long)args->first_ordinal + i;
        sd_cursor_to(L, &cursor, ordinal);
        unsigned char status = args->status[i] <= SD_NOT_DUE ? args->status[i] : SD_NOT_DUE;
        lua_pushvalue(L, okeys);
        lua_pushvalue(L, status_keys + status);
        lua_rawset(L, outcome_fields);
        lua_pushvalue(L, okeys + 1);
        lua_pushboolean(L, args->due[i]);
        lua_rawset(L, outcome_fields);
        lua_pushvalue(L, okeys + 2);
        lua_pushboolean(L, status == SD_COMPLETED);
        lua_rawset(L, outcome_fields);
        lua_pushvalue(L, okeys + 3);
        lua_pushnumber(L, args->totals[i]);
        lua_rawset(L, outcome_fields);
        lua_pushvalue(L, okeys + 4);
        lua_pushnumber(L, args->progress[i]);
        lua_rawset(L, outcome_fields);
        lua_pushvalue(L, function);
        lua_pushvalue(L, state);
        lua_pushvalue(L, cursor.view);
        lua_pushvalue(L, outcome);
        lua_pushvalue(L, params);
        sd_cursor_next_call(&cursor);
        lua_call(L, 4, args->explain ? 2 : 1);
        if (args->explain) {
            /* The optional second answer: a sentence saying why, kept when it is a string. */
            if (lua_type(L, -1) == LUA_TSTRING && i >= args->keep_from) lua_rawseti(L, whys, i - args->keep_from + 1); else lua_pop(L, 1);
        }
        if (!lua_istable(L, -1)) {
            return answer_error(L, args, "streak returned %s%s; expected the state table", luaL_typename(L, -1), "on", ordinal);
        }
        int result = lua_gettop(L);
        state_field(L, args, result, "current", ordinal, &args->current);
        state_field(L, args, result, "longest", ordinal, &args->longest);
        if (args->step_current) {
            args->step_current[i] = args->current;
            args->step_longest[i] = args->longest;
        }
        if (args->explain && i + 1 >= args->keep_from) {
            sd_push_prelude(L, "state_json");
            lua_pushvalue(L, result);
            lua_call(L, 1, 1);
            lua_rawseti(L, states, i - args->keep_from + 2);
        }
        lua_replace(L, state);
    }
    if (args->explain) {
        sd_push_prelude(L, "explain_json");
        lua_pushvalue(L, states);
        lua_pushvalue(L, whys);
        lua_pushinteger(L, args->count - args->keep_from);
        lua_call(L, 3, 1);
        size_t length = 0;
        const char *text = lua_tolstring(L, -1, &length);
        if (!text) return answer_error(L, args, "the explanation of the streak fold is %s%s; expected text", "missing", "for the days from", (long long)args->first_ordinal);
        char *copy = malloc(length + 1);
        if (!copy) return luaL_error(L, "not enough memory for the explanation");
        memcpy(copy, text, length + 1);
        args->explain_json = copy;
        args->explain_length = length;
    }
    return 0;
}

int sd_streak_explain(sd_host *host, sd_days *days, sd_error *error) {
    if (days->ordinals && days->count > 0) days->first_ordinal = days->ordinals[0];
    days->use_range = 0;
    days->explain = 1;
    days->explain_json = NULL;
    days->keep_from = days->keep_from < 0 ? 0 : days->keep_from > days->count ? days->count : days->keep_from;
    if (run_role(host, op_streak, days, error) != 0) {
        free(days->explain_json);
        days->explain_json = NULL;
        return -1;
    }
    return 0;
}

int sd_streak(sd_host *host, sd_days *days, sd_error *error) {
    if (days->ordinals && days->count > 0) days->first_ordinal = days->ordinals[0];
    days->explain = 0;
    if (!days->step_current || !days->step_longest) days->step_current = days->step_longest = NULL;
    return run_role(host, op_streak, days, error);
}
