#include "stackday_lua_host.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The count hook fires every HOOK_STEP VM instructions. */
#define HOOK_STEP 1000

struct sd_host {
    lua_State *L;
    size_t used;               /* bytes held by the state */
    size_t limit;              /* allocation cap in force */
    size_t memory_budget;      /* bytes a call may add */
    long long instruction_budget;
    long long ticks;           /* hook calls in this call */
    int instructions_out;      /* the instruction budget ran out in this call */
    int memory_out;            /* an allocation was refused in this call */
    int answer_error;          /* the op raised because of a wrong answer */
    int prelude;               /* registry reference to the prelude's table of host functions */
};

void sd_error_clear(sd_error *error) {
    if (error == NULL) return;
    free(error->message);
    error->message = NULL;
    error->kind = SD_OK;
}

static void set_error(sd_error *error, int kind, const char *message) {
    if (error == NULL) return;
    free(error->message);
    error->kind = kind;
    error->message = message ? strdup(message) : NULL;
}

static sd_host *host_of(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return (sd_host *)ud;
}

/* The capped allocator: refuses any growth past `limit` (Lua then raises LUA_ERRMEM). */
static void *sd_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    sd_host *host = (sd_host *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        host->used -= old;
        return NULL;
    }
    if (nsize > old && host->used + (nsize - old) > host->limit) {
        host->memory_out = 1;
        return NULL;
    }
    void *block = realloc(ptr, nsize);
    if (block == NULL) return NULL;
    host->used = host->used - old + nsize;
    return block;
}

/* Raises once the instruction budget is spent, and keeps raising at every instruction after that,
   so a script's own pcall cannot swallow the error and carry on. */
static void sd_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    sd_host *host = host_of(L);
    host->ticks++;
    if (host->instructions_out || host->ticks * HOOK_STEP > host->instruction_budget) {
        if (!host->instructions_out) {
            host->instructions_out = 1;
            lua_sethook(L, sd_hook, LUA_MASKCOUNT, 1);
        }
        luaL_error(L, "instruction budget exceeded");
    }
}

/* exhausted() for the prelude: whether a budget ran out in this call. */
static int sd_exhausted(lua_State *L) {
    sd_host *host = host_of(L);
    lua_pushboolean(L, host->instructions_out || host->memory_out);
    return 1;
}

/* memory_left() for the prelude: bytes the current call may still allocate. */
static int sd_memory_left(lua_State *L) {
    sd_host *host = host_of(L);
    lua_pushinteger(L, host->limit > host->used ? (lua_Integer)(host->limit - host->used) : 0);
    return 1;
}

/* out_of_memory() for the prelude: fails the call as if an allocation had been refused. */
static int sd_out_of_memory(lua_State *L) {
    host_of(L)->memory_out = 1;
    lua_pushliteral(L, "not enough memory");
    return lua_error(L);
}

/* Turns any error object into a readable message with the position Lua knows. */
static int sd_message_handler(lua_State *L) {
    if (lua_type(L, 1) == LUA_TSTRING) return 1;
    char where[200] = "";
    lua_Debug ar;
    for (int level = 1; level < 6 && lua_getstack(L, level, &ar); level++) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
            snprintf(where, sizeof where, "%s:%d: ", ar.short_src, ar.currentline);
            break;
        }
    }
    switch (lua_type(L, 1)) {
    case LUA_TNUMBER:
    case LUA_TBOOLEAN:
        luaL_tolstring(L, 1, NULL);
        lua_pushfstring(L, "%serror %s", where, lua_tostring(L, -1));
        return 1;
    case LUA_TTABLE: {
        static const char *fields[] = {"message", "msg", "error", "reason", "code", NULL};
        luaL_Buffer buffer;
        luaL_buffinit(L, &buffer);
        luaL_addstring(&buffer, where);
        luaL_addstring(&buffer, "error {");
        int shown = 0;
        for (int i = 0; fields[i] != NULL; i++) {
            int type = lua_getfield(L, 1, fields[i]); /* the table's own fields; error objects are plain tables */
            if (type == LUA_TSTRING || type == LUA_TNUMBER) {
                lua_pushfstring(L, "%s%s = %s%s%s", shown ? ", " : "", fields[i], type == LUA_TSTRING ? "\"" : "",
                                lua_tostring(L, -1), type == LUA_TSTRING ? "\"" : "");
                lua_remove(L, -2);
                luaL_addvalue(&buffer);
                shown++;
            } else {
                lua_pop(L, 1);
            }
        }
        luaL_addstring(&buffer, shown ? "}" : "a table without a message}");
        luaL_pushresult(&buffer);
        return 1;
    }
    default:
        lua_pushfstring(L, "%serror object is a %s value", where, luaL_typename(L, 1));
        return 1;
    }
}

/* A full garbage collection, run under lua_pcall. */
static int sd_collect(lua_State *L) {
    lua_gc(L, LUA_GCCOLLECT, 0);
    return 0;
}

typedef int (*sd_op)(lua_State *L, void *args);

struct sd_call {
    sd_op op;
    void *args;
};

static int sd_trampoline(lua_State *L) {
    struct sd_call *call = (struct sd_call *)lua_touserdata(L, 1);
    lua_settop(L, 0);
    return call->op(L, call->args);
}

/* Runs `op` in a protected call under the budgets; on failure fills `error` and returns -1. */
static int sd_protected(sd_host *host, sd_op op, void *args, sd_error *error) {
    lua_State *L = host->L;
    int base = lua_gettop(L);
    struct sd_call call = {op, args};
    host->ticks = 0;
    host->instructions_out = 0;
    host->memory_out = 0;
    host->answer_error = 0;
    host->limit = host->memory_budget > SIZE_MAX - host->used ? SIZE_MAX : host->used + host->memory_budget;
    lua_sethook(L, sd_hook, LUA_MASKCOUNT, HOOK_STEP);
    lua_pushcfunction(L, sd_message_handler);
    lua_pushcfunction(L, sd_trampoline);
    lua_pushlightuserdata(L, &call);
    int status = lua_pcall(L, 1, 0, base + 1);
    lua_sethook(L, NULL, 0, 0);
    int result = 0;
    if (status != LUA_OK) {
        const char *message = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "error in error handling";
        if (host->instructions_out) {
            set_error(error, SD_ERROR_INSTRUCTIONS, "exceeded its instruction budget");
        } else if (status == LUA_ERRMEM || (host->memory_out && status != LUA_ERRRUN)) {
            set_error(error, SD_ERROR_MEMORY, "exceeded its memory budget");
        } else if (host->memory_out && message && strstr(message, "not enough memory") != NULL) {
            set_error(error, SD_ERROR_MEMORY, "exceeded its memory budget");
        } else {
            set_error(error, host->answer_error ? SD_ERROR_ANSWER : SD_ERROR_RUNTIME, message);
        }
        result = -1;
    }
    lua_settop(L, base);
    /* Outside calls the cap is lifted: only the fixed-size pushes above run there. */
    host->limit = SIZE_MAX;
    if (host->memory_out) {
        /* What the failed call built is garbage now; collect it, so that the next call's budget,
           counted from what the state holds, does not grow with every failure. */
        lua_pushcfunction(L, sd_collect);
        if (lua_pcall(L, 0, 0, 0) != LUA_OK) lua_pop(L, 1);
    }
    return result;
}

/* Pushes prelude[name]. */
static void push_prelude(lua_State *L, const char *name) {
    sd_host *host = host_of(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, host->prelude);
    lua_getfield(L, -1, name);
    lua_remove(L, -2);
}

struct sd_new_args {
    const char *prelude;
    size_t length;
};

static int op_open(lua_State *L, void *raw) {
    struct sd_new_args *args = (struct sd_new_args *)raw;
    luaL_openlibs(L);
    if (luaL_loadbufferx(L, args->prelude, args->length, "=prelude", "t") != LUA_OK) return lua_error(L);
    lua_pushcfunction(L, sd_exhausted);
    lua_pushcfunction(L, sd_memory_left);
    lua_pushcfunction(L, sd_out_of_memory);
    lua_call(L, 3, 1);
    if (!lua_istable(L, -1)) return luaL_error(L, "the prelude must return a table");
    host_of(L)->prelude = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

sd_host *sd_host_new(const char *prelude, size_t prelude_length, sd_error *error) {
    sd_host *host = (sd_host *)calloc(1, sizeof *host);
    if (host == NULL) {
        set_error(error, SD_ERROR_HOST, "out of memory");
        return NULL;
    }
    host->limit = SIZE_MAX;
    host->memory_budget = (size_t)256 << 20;
    host->instruction_budget = 1000000000LL;
    host->L = lua_newstate(sd_alloc, host);
    if (host->L == NULL) {
        free(host);
        set_error(error, SD_ERROR_HOST, "cannot create a Lua state");
        return NULL;
    }
    struct sd_new_args args = {prelude, prelude_length};
    if (sd_protected(host, op_open, &args, error) != 0) {
        sd_host_free(host);
        return NULL;
    }
    return host;
}

void sd_host_free(sd_host *host) {
    if (host == NULL) return;
    if (host->L) lua_close(host->L);
    free(host);
}

void sd_host_set_budgets(sd_host *host, long long instructions, size_t memory_bytes) {
    host->instruction_budget = instructions;
    host->memory_budget = memory_bytes;
}

size_t sd_host_memory(const sd_host *host) { return host->used; }

struct sd_load_args {
    const char *source;
    size_t length;
    const char *chunkname;
    int reference;
};

static int op_load(lua_State *L, void *raw) {
    struct sd_load_args *args = (struct sd_load_args *)raw;
    if (luaL_loadbufferx(L, args->source, args->length, args->chunkname, "t") != LUA_OK) return lua_error(L);
    int chunk = lua_gettop(L);
    push_prelude(L, "make_env");
    lua_call(L, 0, 1);
    int env = lua_gettop(L);
    lua_pushvalue(L, env);
    if (lua_setupvalue(L, chunk, 1) == NULL) lua_pop(L, 1);
    lua_pushvalue(L, chunk);
    lua_call(L, 0, 1);
    push_prelude(L, "seal");
    lua_insert(L, -2);
    lua_pushvalue(L, env);
    lua_call(L, 2, 1);
    args->reference = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

int sd_load_policy(sd_host *host, const char *source, size_t length, const char *chunkname, sd_error *error) {
    struct sd_load_args args = {source, length, chunkname, 0};
    if (sd_protected(host, op_load, &args, error) != 0) return 0;
    return args.reference;
}

static int op_release(lua_State *L, void *raw) {
    luaL_unref(L, LUA_REGISTRYINDEX, *(int *)raw);
    return 0;
}

void sd_release(sd_host *host, int reference) {
    if (reference <= 0) return;
    sd_error error = {0, NULL};
    sd_protected(host, op_release, &reference, &error);
    sd_error_clear(&error);
}

struct sd_text_args {
    int reference;
    const char *function;
    char *text;
};

/* Calls prelude[function](registry[reference]) and copies the string it returns. */
static int op_text(lua_State *L, void *raw) {
    struct sd_text_args *args = (struct sd_text_args *)raw;
    push_prelude(L, args->function);
    lua_rawgeti(L, LUA_REGISTRYINDEX, args->reference);
    lua_call(L, 1, 1);
    size_t length = 0;
    const char *text = lua_tolstring(L, -1, &length);
    if (text == NULL) return luaL_error(L, "%s did not return a string", args->function);
    args->text = (char *)malloc(length + 1);
    if (args->text == NULL) return luaL_error(L, "out of memory");
    memcpy(args->text, text, length + 1);
    return 0;
}

char *sd_describe_policy(sd_host *host, int policy, sd_error *error) {
    struct sd_text_args args = {policy, "describe", NULL};
    if (sd_protected(host, op_text, &args, error) != 0) return NULL;
    return args.text;
}

char *sd_binding_parameters(sd_host *host, int binding, sd_error *error) {
    struct sd_text_args args = {binding, "binding_parameters", NULL};
    if (sd_protected(host, op_text, &args, error) != 0) return NULL;
    return args.text;
}

/* ---- Day views ---------------------------------------------------------------------------- */

static void civil_from_days(long long z, long long *year, int *month, int *day) {
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
    civil_from_days(ordinal, &year, &month, &day);
    static const int before[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    lua_Integer values[DAY_KEY_COUNT] = {
        year, month, day, ((ordinal + 3) % 7 + 7) % 7 + 1,
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
    push_prelude(L, "make_view");
    lua_pushliteral(L, "the day view");
    lua_pushboolean(L, 1);
    lua_call(L, 2, 2);
    *backing = lua_gettop(L);
    *previous = -1;
    fill_day(L, *backing, *keys, ordinal, previous);
    return *backing - 1;
}

/* Walks a read-only day view through days from `first`: consecutive ones, or any in increasing order. */
struct day_cursor {
    int view, keys, backing;
    long long first, current, previous;
};

static void cursor_begin(lua_State *L, struct day_cursor *cursor, long long first) {
    cursor->first = first;
    cursor->current = first;
    cursor->view = push_day_view(L, first, &cursor->keys, &cursor->previous, &cursor->backing);
}

/* Moves the view to day `ordinal` (nothing to write when it is there already). */
static void cursor_to(lua_State *L, struct day_cursor *cursor, long long ordinal) {
    if (ordinal == cursor->current) return;
    fill_day(L, cursor->backing, cursor->keys, ordinal, &cursor->previous);
    cursor->current = ordinal;
}

/* Moves the view to day `first + i` and returns its number. */
static long long cursor_move(lua_State *L, struct day_cursor *cursor, int i) {
    long long ordinal = cursor->first + i;
    cursor_to(L, cursor, ordinal);
    return ordinal;
}

/* Raises an error about a wrong answer, marked so the host reports it as one. */
static int answer_error(lua_State *L, const char *format, const char *what, long long ordinal) __attribute__((format(printf, 2, 0)));
static int answer_error(lua_State *L, const char *format, const char *what, long long ordinal) {
    long long year;
    int month, day;
    civil_from_days(ordinal, &year, &month, &day);
    char message[256];
    snprintf(message, sizeof message, format, what, (int)year, month, day);
    host_of(L)->answer_error = 1;
    lua_pushstring(L, message);
    return lua_error(L);
}

/* ---- Binding --------------------------------------------------------------------------------- */

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
    struct sd_bind_args *args = (struct sd_bind_args *)raw;
    push_prelude(L, "bind");
    lua_rawgeti(L, LUA_REGISTRYINDEX, args->policy);
    if (args->parameters_length == 0) {
        lua_newtable(L); /* no parameters: nothing to compile */
    } else {
        if (luaL_loadbufferx(L, args->parameters, args->parameters_length, "=parameters", "t") != LUA_OK) return lua_error(L);
        lua_newtable(L);
        lua_setupvalue(L, -2, 1);
        lua_call(L, 0, 1);
    }
    lua_createtable(L, 0, 3);
    int habit = lua_gettop(L);
    int keys, backing;
    long long previous;
    lua_pushvalue(L, push_day_view(L, args->started_ordinal, &keys, &previous, &backing));
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
    push_prelude(L, "call_parts");
    lua_rawgeti(L, LUA_REGISTRYINDEX, binding);
    lua_pushstring(L, role);
    lua_pushboolean(L, use_range);
    lua_call(L, 3, 4);
    return lua_gettop(L) - 3;
}

/* ---- Roles ----------------------------------------------------------------------------------- */

struct sd_range_args {
    int binding;
    int use_range;
    int first;
    int count;
    const double *totals;
    const unsigned char *status;
    const unsigned char *due;
    const double *progress;
    const int *ordinals;
    long long *step_current, *step_longest;
    unsigned char *due_out;
    double *progress_out;
    long long current;
    long long longest;
};

static int op_schedule(lua_State *L, void *raw) {
    struct sd_range_args *args = (struct sd_range_args *)raw;
    int function = push_call_parts(L, args->binding, "isDue", args->use_range);
    int params = function + 1, habit = function + 2, range = function + 3;
    if (!lua_isnil(L, range)) {
        /* dueRange(first, last, params, habit): true for every day, or a list of due day numbers. */
        long long last = (long long)args->first + args->count - 1;
        lua_pushvalue(L, range);
        lua_pushinteger(L, args->first);
        lua_pushinteger(L, last);
        lua_pushvalue(L, params);
        lua_pushvalue(L, habit);
        lua_call(L, 4, 1);
        if (lua_type(L, -1) == LUA_TBOOLEAN && lua_toboolean(L, -1)) {
            memset(args->due_out, 1, (size_t)args->count);
            return 0;
        }
        if (!lua_istable(L, -1)) return answer_error(L, "dueRange returned %s from %04d-%02d-%02d; expected true or a list of day numbers", luaL_typename(L, -1), args->first);
        memset(args->due_out, 0, (size_t)args->count);
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            int isnum = 0;
            lua_Integer ordinal = lua_tointegerx(L, -1, &isnum);
            if (!isnum || ordinal < args->first || ordinal > last) {
                return answer_error(L, "dueRange returned %s in the list for the range from %04d-%02d-%02d; expected day numbers inside the range",
                                    isnum ? "a day outside the range" : luaL_typename(L, -1), args->first);
            }
            args->due_out[ordinal - args->first] = 1;
            lua_pop(L, 1);
        }
        return 0;
    }
    struct day_cursor cursor;
    cursor_begin(L, &cursor, args->first);
    for (int i = 0; i < args->count; i++) {
        long long ordinal = cursor_move(L, &cursor, i);
        lua_pushvalue(L, function);
        lua_pushvalue(L, cursor.view);
        lua_pushvalue(L, params);
        lua_pushvalue(L, habit);
        lua_call(L, 3, 1);
        if (lua_type(L, -1) != LUA_TBOOLEAN) {
            return answer_error(L, "isDue returned %s for %04d-%02d-%02d; expected true or false", luaL_typename(L, -1), ordinal);
        }
        args->due_out[i] = (unsigned char)lua_toboolean(L, -1);
        lua_pop(L, 1);
    }
    return 0;
}

int sd_schedule(sd_host *host, int binding, int use_range, int first_ordinal, int count, unsigned char *out, sd_error *error) {
    struct sd_range_args args = {0};
    args.binding = binding;
    args.use_range = use_range;
    args.first = first_ordinal;
    args.count = count;
    args.due_out = out;
    return sd_protected(host, op_schedule, &args, error);
}

struct sd_quota_args {
    int binding;
    int times, kind, days;
};

static int op_quota(lua_State *L, void *raw) {
    struct sd_quota_args *args = (struct sd_quota_args *)raw;
    push_prelude(L, "quota");
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

/* Checks the progress value on top of the stack for day `i`, stores it and pops it; raises otherwise. */
static int check_progress(lua_State *L, struct sd_range_args *args, int i) {
    long long ordinal = (long long)args->first + i;
    if (lua_type(L, -1) != LUA_TNUMBER) {
        return answer_error(L, "progress returned %s for %04d-%02d-%02d; expected a number from 0 to 1", luaL_typename(L, -1), ordinal);
    }
    double value = lua_tonumber(L, -1);
    if (isnan(value)) return answer_error(L, "progress returned %s for %04d-%02d-%02d; expected a number from 0 to 1", "NaN", ordinal);
    if (isinf(value)) return answer_error(L, "progress returned %s for %04d-%02d-%02d; expected a number from 0 to 1", value > 0 ? "infinity" : "-infinity", ordinal);
    if (value < 0) return answer_error(L, "progress returned %s for %04d-%02d-%02d; expected a number from 0 to 1", "a negative number", ordinal);
    args->progress_out[i] = value > 1 ? 1 : value;
    lua_pop(L, 1);
    return 0;
}

static int op_progress(lua_State *L, void *raw) {
    struct sd_range_args *args = (struct sd_range_args *)raw;
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
        lua_pushinteger(L, args->first);
        lua_call(L, 4, 1);
        if (!lua_istable(L, -1)) return answer_error(L, "progressRange returned %s from %04d-%02d-%02d; expected a list of numbers", luaL_typename(L, -1), args->first);
        int list = lua_gettop(L);
        for (int i = 0; i < args->count; i++) {
            lua_rawgeti(L, list, i + 1);
            if (check_progress(L, args, i) != 0) return 0;
        }
        return 0;
    }
    struct day_cursor cursor;
    cursor_begin(L, &cursor, args->first);
    for (int i = 0; i < args->count; i++) {
        cursor_move(L, &cursor, i);
        lua_pushvalue(L, function);
        lua_pushnumber(L, args->totals[i]);
        lua_pushvalue(L, goal);
        lua_pushvalue(L, params);
        lua_pushvalue(L, cursor.view);
        lua_call(L, 4, 1);
        check_progress(L, args, i);
    }
    return 0;
}

int sd_progress(sd_host *host, int binding, int use_range, int first_ordinal, int count, const double *totals, double *out, sd_error *error) {
    struct sd_range_args args = {0};
    args.binding = binding;
    args.use_range = use_range;
    args.first = first_ordinal;
    args.count = count;
    args.totals = totals;
    args.progress_out = out;
    return sd_protected(host, op_progress, &args, error);
}

static int state_field(lua_State *L, int state, const char *name, long long ordinal, long long *out) {
    lua_getfield(L, state, name);
    int isnum = 0;
    lua_Integer value = lua_tointegerx(L, -1, &isnum);
    if (!isnum || value < 0) {
        return answer_error(L, "streak returned a state whose %s is not a whole number >= 0 on %04d-%02d-%02d", name, ordinal);
    }
    *out = value;
    lua_pop(L, 1);
    return 0;
}

static int op_streak(lua_State *L, void *raw) {
    static const char *names[] = {"completed", "missed", "pending", "skipped", "notDue"};
    struct sd_range_args *args = (struct sd_range_args *)raw;
    int function = push_call_parts(L, args->binding, "streak", args->use_range);
    int params = function + 1, range = function + 3;
    push_prelude(L, "initial_state");
    lua_rawgeti(L, LUA_REGISTRYINDEX, args->binding);
    lua_pushvalue(L, params);
    lua_call(L, 2, 1);
    if (!lua_isnil(L, range) && args->ordinals == NULL && args->step_current == NULL) {
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
        lua_pushinteger(L, args->first);
        lua_call(L, 4, 1);
        long long last = (long long)args->first + args->count - 1;
        if (!lua_istable(L, -1)) return answer_error(L, "streakRange returned %s for the days up to %04d-%02d-%02d; expected the state table", luaL_typename(L, -1), last);
        int result = lua_gettop(L);
        state_field(L, result, "current", last, &args->current);
        state_field(L, result, "longest", last, &args->longest);
        return 0;
    }
    /* The state is replaced each day by what the rule returns. */
    int state = lua_gettop(L);
    struct day_cursor cursor;
    cursor_begin(L, &cursor, args->first);
    push_prelude(L, "make_view");
    lua_pushliteral(L, "the outcome");
    lua_pushboolean(L, 0);
    lua_call(L, 2, 2);
    int outcome_fields = lua_gettop(L);
    int outcome = outcome_fields - 1;
    static const char *const outcome_keys[] = {"status", "due", "met", "total", "progress"};
    int okeys = lua_gettop(L) + 1;
    for (int i = 0; i < 5; i++) lua_pushstring(L, outcome_keys[i]);
    int status_names = lua_gettop(L) + 1;
    for (int i = 0; i <= SD_NOT_DUE; i++) lua_pushstring(L, names[i]);
    args->current = 0;
    args->longest = 0;
    for (int i = 0; i < args->count; i++) {
        long long ordinal = args->ordinals ? args->ordinals[i] : (long long)args->first + i;
        cursor_to(L, &cursor, ordinal);
        unsigned char status = args->status[i] <= SD_NOT_DUE ? args->status[i] : SD_NOT_DUE;
        lua_pushvalue(L, okeys);
        lua_pushvalue(L, status_names + status);
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
        lua_call(L, 4, 1);
        if (!lua_istable(L, -1)) {
            return answer_error(L, "streak returned %s on %04d-%02d-%02d; expected the state table", luaL_typename(L, -1), ordinal);
        }
        int result = lua_gettop(L);
        state_field(L, result, "current", ordinal, &args->current);
        state_field(L, result, "longest", ordinal, &args->longest);
        if (args->step_current) {
            args->step_current[i] = args->current;
            args->step_longest[i] = args->longest;
        }
        lua_replace(L, state);
    }
    return 0;
}

int sd_streak(sd_host *host, int binding, int use_range, int first_ordinal, const int *ordinals, int count,
              const unsigned char *status, const unsigned char *due, const double *totals, const double *progress,
              long long *current, long long *longest, long long *step_current, long long *step_longest, sd_error *error) {
    struct sd_range_args args = {0};
    args.binding = binding;
    args.use_range = use_range;
    args.first = ordinals ? ordinals[0] : first_ordinal;
    args.ordinals = ordinals;
    args.step_current = step_current && step_longest ? step_current : NULL;
    args.step_longest = step_longest;
    args.count = count;
    args.status = status;
    args.due = due;
    args.totals = totals;
    args.progress = progress;
    if (sd_protected(host, op_streak, &args, error) != 0) return -1;
    *current = args.current;
    *longest = args.longest;
    return 0;
}
