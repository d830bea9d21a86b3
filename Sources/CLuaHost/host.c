#include "internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The state, its allocator and instruction hook (the budgets), protected calls, and loading
   policies. Every Lua call that can raise runs inside sd_protected. */

/* The count hook fires every HOOK_STEP VM instructions. */
#define HOOK_STEP 1000

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

sd_host *sd_host_of(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return (sd_host *)ud;
}

/* The error object of a budget error: which budget is recorded in the host when it is raised. */
static const char budget_sentinel = 0;

static int is_budget_error(lua_State *L, int index) {
    return lua_type(L, index) == LUA_TLIGHTUSERDATA && lua_touserdata(L, index) == (void *)&budget_sentinel;
}

int sd_raise(lua_State *L, int kind, const char *message) {
    sd_host_of(L)->raised = kind;
    if (kind == SD_ERROR_INSTRUCTIONS || kind == SD_ERROR_MEMORY) {
        lua_pushlightuserdata(L, (void *)&budget_sentinel);
    } else {
        lua_pushstring(L, message ? message : "error");
    }
    return lua_error(L);
}

/* Whether a budget ran out in this call (an allocation refused counts, even if Lua recovered). */
static int budget_spent(const sd_host *host) {
    return host->raised == SD_ERROR_INSTRUCTIONS || host->raised == SD_ERROR_MEMORY || host->memory_refused;
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
        host->memory_refused = 1;
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
    sd_host *host = sd_host_of(L);
    host->ticks++;
    if (host->raised == SD_ERROR_INSTRUCTIONS || host->ticks * HOOK_STEP > host->instruction_budget) {
        if (host->raised != SD_ERROR_INSTRUCTIONS) lua_sethook(L, sd_hook, LUA_MASKCOUNT, 1);
        sd_raise(L, SD_ERROR_INSTRUCTIONS, NULL);
    }
}

void sd_charge(lua_State *L, long long instructions) {
    sd_host *host = sd_host_of(L);
    host->ticks += instructions / HOOK_STEP + 1;
    if (host->raised == SD_ERROR_INSTRUCTIONS || host->ticks * HOOK_STEP > host->instruction_budget) {
        if (host->raised != SD_ERROR_INSTRUCTIONS) lua_sethook(L, sd_hook, LUA_MASKCOUNT, 1);
        sd_raise(L, SD_ERROR_INSTRUCTIONS, NULL);
    }
}

/* exhausted() for the prelude: whether a budget ran out in this call. */
static int sd_exhausted(lua_State *L) {
    lua_pushboolean(L, budget_spent(sd_host_of(L)));
    return 1;
}

/* memory_left() for the prelude: bytes the current call may still allocate. */
static int sd_memory_left(lua_State *L) {
    sd_host *host = sd_host_of(L);
    lua_pushinteger(L, host->limit > host->used ? (lua_Integer)(host->limit - host->used) : 0);
    return 1;
}

/* out_of_memory() for the prelude: fails the call on its memory budget. */
static int sd_out_of_memory(lua_State *L) {
    return sd_raise(L, SD_ERROR_MEMORY, NULL);
}

/* budget_error() for the prelude: raises again the budget error a policy's pcall caught. */
static int sd_budget_error(lua_State *L) {
    sd_host *host = sd_host_of(L);
    return sd_raise(L, host->raised == SD_ERROR_INSTRUCTIONS ? SD_ERROR_INSTRUCTIONS : SD_ERROR_MEMORY, NULL);
}

/* Turns any error object into a readable message with the position Lua knows. */
static int sd_message_handler(lua_State *L) {
    if (lua_type(L, 1) == LUA_TSTRING || is_budget_error(L, 1)) return 1;
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

struct sd_call {
    sd_op op;
    void *args;
};

static int sd_trampoline(lua_State *L) {
    struct sd_call *call = (struct sd_call *)lua_touserdata(L, 1);
    lua_settop(L, 0);
    return call->op(L, call->args);
}

int sd_protected(sd_host *host, sd_op op, void *args, sd_error *error) {
    lua_State *L = host->L;
    int base = lua_gettop(L);
    struct sd_call call = {op, args};
    host->ticks = 0;
    host->raised = SD_OK;
    host->memory_refused = 0;
    host->limit = host->memory_budget > SIZE_MAX - host->used ? SIZE_MAX : host->used + host->memory_budget;
    lua_sethook(L, sd_hook, LUA_MASKCOUNT, HOOK_STEP);
    lua_pushcfunction(L, sd_message_handler);
    lua_pushcfunction(L, sd_trampoline);
    lua_pushlightuserdata(L, &call);
    int status = lua_pcall(L, 1, 0, base + 1);
    lua_sethook(L, NULL, 0, 0);
    int result = 0;
    if (status != LUA_OK) {
        /* The kind was recorded where the error was raised; only a string object carries a message. */
        int kind = SD_ERROR_RUNTIME;
        if (status == LUA_ERRMEM) {
            kind = SD_ERROR_MEMORY;
        } else if (is_budget_error(L, -1) || host->raised == SD_ERROR_ANSWER) {
            kind = host->raised;
        }
        switch (kind) {
        case SD_ERROR_INSTRUCTIONS: set_error(error, kind, "exceeded its instruction budget"); break;
        case SD_ERROR_MEMORY: set_error(error, kind, "exceeded its memory budget"); break;
        default: set_error(error, kind, lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "error in error handling"); break;
        }
        result = -1;
    }
    lua_settop(L, base);
    /* Outside calls the cap is lifted: only the fixed-size pushes above run there. */
    host->limit = SIZE_MAX;
    if (host->memory_refused || host->raised == SD_ERROR_MEMORY) {
        /* What the failed call built is garbage now; collect it, so that the next call's budget,
           counted from what the state holds, does not grow with every failure. */
        lua_pushcfunction(L, sd_collect);
        if (lua_pcall(L, 0, 0, 0) != LUA_OK) lua_pop(L, 1);
    }
    return result;
}

void sd_push_prelude(lua_State *L, const char *name) {
    sd_host *host = sd_host_of(L);
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
    /* Only what a policy may use is ever loaded: no io, os, package, debug or coroutine. */
    static const luaL_Reg libraries[] = {
        {LUA_GNAME, luaopen_base}, {LUA_STRLIBNAME, luaopen_string}, {LUA_TABLIBNAME, luaopen_table},
        {LUA_MATHLIBNAME, luaopen_math}, {LUA_UTF8LIBNAME, luaopen_utf8}, {NULL, NULL},
    };
    for (const luaL_Reg *library = libraries; library->func; library++) {
        luaL_requiref(L, library->name, library->func, 1);
        lua_pop(L, 1);
    }
    if (luaL_loadbufferx(L, args->prelude, args->length, "@prelude.lua", "t") != LUA_OK) return lua_error(L);
    /* The prelude's one argument: the host functions it needs, the calendar for policies, and the
       codes it answers with, named here once. */
    static const luaL_Reg functions[] = {
        {"exhausted", sd_exhausted}, {"memory_left", sd_memory_left}, {"out_of_memory", sd_out_of_memory},
        {"budget_error", sd_budget_error}, {NULL, NULL},
    };
    luaL_newlib(L, functions);
    sd_push_calendar(L);
    lua_setfield(L, -2, "calendar");
    lua_createtable(L, 0, 4);
    static const struct { const char *name; int code; } quota[] = {
        {"none", SD_QUOTA_NONE}, {"week", SD_QUOTA_WEEK}, {"month", SD_QUOTA_MONTH}, {"rolling", SD_QUOTA_ROLLING},
    };
    for (size_t i = 0; i < sizeof quota / sizeof quota[0]; i++) {
        lua_pushinteger(L, quota[i].code);
        lua_setfield(L, -2, quota[i].name);
    }
    lua_setfield(L, -2, "quota");
    lua_call(L, 1, 1);
    if (!lua_istable(L, -1)) return luaL_error(L, "the prelude must return a table");
    sd_host_of(L)->prelude = luaL_ref(L, LUA_REGISTRYINDEX);
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

struct sd_loaded_args {
    const char *name;
    int loaded;
};

static int op_library_loaded(lua_State *L, void *raw) {
    struct sd_loaded_args *args = (struct sd_loaded_args *)raw;
    args->loaded = lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE) == LUA_TTABLE && lua_getfield(L, -1, args->name) != LUA_TNIL;
    return 0;
}

int sd_host_library_loaded(sd_host *host, const char *name) {
    struct sd_loaded_args args = {name, 0};
    sd_error error = {0, NULL};
    sd_protected(host, op_library_loaded, &args, &error);
    sd_error_clear(&error);
    return args.loaded;
}

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
    sd_push_prelude(L, "make_env");
    lua_call(L, 0, 1);
    int env = lua_gettop(L);
    lua_pushvalue(L, env);
    if (lua_setupvalue(L, chunk, 1) == NULL) lua_pop(L, 1);
    lua_pushvalue(L, chunk);
    lua_call(L, 0, 1);
    sd_push_prelude(L, "seal");
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
    sd_push_prelude(L, args->function);
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
