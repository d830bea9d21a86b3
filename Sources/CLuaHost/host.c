#include "internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The state, protected calls, and loading policies; the budgets each call runs under are
   budget.c's. Every Lua call that can raise runs inside sd_protected. */

/* Error messages from policies are cut to this many bytes. */
#define MESSAGE_LIMIT 300

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
    error->message = NULL;
    if (message) {
        /* Room for the note a cut message ends with. */
        size_t length = strlen(message);
        size_t keep = length > MESSAGE_LIMIT ? MESSAGE_LIMIT : length;
        error->message = (char *)malloc(keep + 64);
        if (error->message) {
            memcpy(error->message, message, keep);
            error->message[keep] = 0;
            if (keep < length) {
                size_t cut = keep;
                while (cut > 0 && ((unsigned char)error->message[cut] & 0xC0) == 0x80) cut--;
                snprintf(error->message + cut, keep + 64 - cut, "... (cut from %zu bytes)", length);
            }
        }
    }
}

/* charge(n) for the prelude: counts n units of native work a library call is about to do. */
static int sd_charge_lua(lua_State *L) {
    SD_FRAME(L, "sd_charge_lua");
    lua_Number n = luaL_checknumber(L, 1);
    if (n > 0) sd_charge(L, n > 9e18 ? 9000000000000000000LL : (long long)n);
    return 0;
}

/* metatable(v) for the prelude: v's metatable as stored, never its __metatable field. */
static int sd_metatable(lua_State *L) {
    SD_FRAME(L, "sd_metatable");
    luaL_checkany(L, 1);
    if (!lua_getmetatable(L, 1)) lua_pushnil(L);
    return 1;
}

/* serial() for the prelude: which call into the state is running (each call has its own number). */
static int sd_serial(lua_State *L) {
    SD_FRAME(L, "sd_serial");
    lua_pushinteger(L, sd_host_of(L)->serial);
    return 1;
}

/* exhausted() for the prelude: whether a budget ran out in this call. */
static int sd_exhausted(lua_State *L) {
    SD_FRAME(L, "sd_exhausted");
    lua_pushboolean(L, sd_budget_spent(sd_host_of(L)));
    return 1;
}

/* memory_left() for the prelude: bytes the current call may still allocate. */
static int sd_memory_left(lua_State *L) {
    SD_FRAME(L, "sd_memory_left");
    sd_host *host = sd_host_of(L);
    lua_pushinteger(L, host->limit > host->used ? (lua_Integer)(host->limit - host->used) : 0);
    return 1;
}

/* out_of_memory() for the prelude: fails the call on its memory budget. */
static int sd_out_of_memory(lua_State *L) {
    SD_FRAME(L, "sd_out_of_memory");
    return sd_raise(L, SD_ERROR_MEMORY, NULL);
}

/* budget_error() for the prelude: raises again the budget error a policy's pcall caught. */
static int sd_budget_error(lua_State *L) {
    SD_FRAME(L, "sd_budget_error");
    sd_host *host = sd_host_of(L);
    if (host->spent != SD_SPENT_NONE) sd_raise_spent(L, host);
    return sd_raise(L, SD_ERROR_MEMORY, NULL);
}

/* Turns any error object into a readable message with the position Lua knows. Fields of a table
   are read raw: a metamethod here would run where no budget can stop it. */
static int sd_message_handler(lua_State *L) {
    SD_FRAME(L, "sd_message_handler");
    sd_host *host = sd_host_of(L);
    if (sd_is_budget_error(L, 1) || (host && sd_budget_spent(host))) {
        /* Where the policy was when its budget ran out: the message names that line. */
        if (host && host->where[0] == 0) sd_note_where(L, host, 1);
        return 1;
    }
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
        lua_pushfstring(L, "%serror %s", where, lua_type(L, 1) == LUA_TBOOLEAN ? (lua_toboolean(L, 1) ? "true" : "false")
                                                                               : lua_tostring(L, 1));
        return 1;
    case LUA_TTABLE: {
        static const char *fields[] = {"message", "msg", "error", "reason", "code", NULL};
        luaL_Buffer buffer;
        luaL_buffinit(L, &buffer);
        luaL_addstring(&buffer, where);
        luaL_addstring(&buffer, "error {");
        int shown = 0;
        for (int i = 0; fields[i] != NULL; i++) {
            lua_pushstring(L, fields[i]);
            int type = lua_rawget(L, 1);
            if (type == LUA_TSTRING || type == LUA_TNUMBER) {
                /* A number field is made a string on a copy, never in the table. */
                lua_pushvalue(L, -1);
                const char *text = lua_tostring(L, -1);
                lua_pushfstring(L, "%s%s = %s%s%s", shown ? ", " : "", fields[i], type == LUA_TSTRING ? "\"" : "",
                                text, type == LUA_TSTRING ? "\"" : "");
                lua_remove(L, -2);
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
    SD_FRAME(L, "sd_collect");
    lua_gc(L, LUA_GCCOLLECT, 0);
    return 0;
}

struct sd_call {
    sd_op op;
    void *args;
};

/* The op runs in this function's frame and is audited as its own (SD_FRAME in each op). */
static int sd_trampoline(lua_State *L) {
    struct sd_call *call = (struct sd_call *)lua_touserdata(L, 1);
    lua_settop(L, 0);
    return call->op(L, call->args);
}

/* Runs `op` under lua_pcall with the budgets. A call on a thread whose request has spent its
   budget fails at once; `charged` 0 is for the host's own housekeeping, which no budget refuses. */
static int sd_run(sd_host *host, sd_op op, void *args, sd_error *error, int charged) {
    sd_audit_reset();
    lua_State *L = host->L;
    char text[200];
    int refused_kind;
    const char *refused;
    if (sd_request_refuses(charged, &refused_kind, text, sizeof text, &refused)) {
        set_error(error, refused_kind, refused);
        return -1;
    }
    int base = lua_gettop(L);
    struct sd_call call = {op, args};
    sd_budget_begin(host, charged);
    lua_pushcfunction(L, sd_message_handler);
    lua_pushcfunction(L, sd_trampoline);
    lua_pushlightuserdata(L, &call);
    int status = lua_pcall(L, 1, 0, base + 1);
    sd_budget_end(host, charged);
    int result = 0;
    if (status != LUA_OK) {
        /* The kind was recorded where the error was raised; only a string object carries a message. */
        int kind = SD_ERROR_RUNTIME;
        if (host->spent != SD_SPENT_NONE) {
            kind = sd_spent_kind(host->spent);
        } else if (status == LUA_ERRMEM || host->raised == SD_ERROR_MEMORY) {
            kind = SD_ERROR_MEMORY;
        } else if (sd_is_budget_error(L, -1) || host->raised == SD_ERROR_ANSWER) {
            kind = host->raised;
        }
        /* A budget's message names where the policy was stopped (`chunk:line: …`, as Lua's own
           errors are written) when that is known. */
        char located[400];
        const char *spent = kind == SD_ERROR_MEMORY ? "exceeded its memory budget" : sd_spent_message(host->spent, text, sizeof text);
        if (host->where[0]) {
            snprintf(located, sizeof located, "%s: %s", host->where, spent);
            spent = located;
        }
        switch (kind) {
        case SD_ERROR_INSTRUCTIONS:
        case SD_ERROR_TIME:
        case SD_ERROR_MEMORY: set_error(error, kind, spent); break;
        default: set_error(error, kind, lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "error in error handling"); break;
        }
        result = -1;
    }
    lua_settop(L, base);
    /* Outside calls the cap is lifted: only the fixed-size pushes above run there. */
    host->limit = SIZE_MAX;
    if (host->memory_refused || host->raised == SD_ERROR_MEMORY || host->spent != SD_SPENT_NONE || host->used > host->state_limit / 2) {
        /* What the failed call built is garbage now; collect it, so that the next call's budget,
           counted from what the state holds, does not grow with every failure. */
        lua_pushcfunction(L, sd_collect);
        if (lua_pcall(L, 0, 0, 0) != LUA_OK) lua_pop(L, 1);
    }
    return result;
}

int sd_protected(sd_host *host, sd_op op, void *args, sd_error *error) { return sd_run(host, op, args, error, 1); }

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
    SD_FRAME(L, "op_open");
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
        {"budget_error", sd_budget_error}, {"charge", sd_charge_lua}, {"metatable", sd_metatable},
        {"serial", sd_serial}, {NULL, NULL},
    };
    luaL_newlib(L, functions);
    sd_push_authoring(L);
    sd_push_calendar(L);
    lua_setfield(L, -2, "calendar");
    sd_push_matcher(L);
    lua_setfield(L, -2, "matcher");
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
    host->time_budget_ns = 0;
    host->state_limit = SIZE_MAX;
    host->L = lua_newstate(sd_budget_allocator(), host);
    if (host->L == NULL) {
        free(host);
        set_error(error, SD_ERROR_HOST, "cannot create a Lua state");
        return NULL;
    }
    struct sd_new_args args = {prelude, prelude_length};
    if (sd_run(host, op_open, &args, error, 0) != 0) {
        sd_host_free(host);
        return NULL;
    }
    return host;
}

void sd_host_free(sd_host *host) {
    if (host == NULL) return;
    if (host->L) lua_close(host->L);
    free(host->trace);
    free(host->covered);
    free(host);
}

void sd_host_set_budgets(sd_host *host, long long instructions, size_t memory_bytes) {
    host->instruction_budget = instructions;
    host->memory_budget = memory_bytes;
}

void sd_host_set_limits(sd_host *host, long long cpu_ns, size_t state_bytes) {
    host->time_budget_ns = cpu_ns;
    host->state_limit = state_bytes ? state_bytes : SIZE_MAX;
}

size_t sd_host_memory(const sd_host *host) { return host->used; }

struct sd_loaded_args {
    const char *name;
    int loaded;
};

static int op_library_loaded(lua_State *L, void *raw) {
    SD_FRAME(L, "op_library_loaded");
    struct sd_loaded_args *args = (struct sd_loaded_args *)raw;
    args->loaded = lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE) == LUA_TTABLE && lua_getfield(L, -1, args->name) != LUA_TNIL;
    return 0;
}

int sd_host_library_loaded(sd_host *host, const char *name) {
    struct sd_loaded_args args = {name, 0};
    sd_error error = {0, NULL};
    sd_run(host, op_library_loaded, &args, &error, 0);
    sd_error_clear(&error);
    return args.loaded;
}

struct sd_load_args {
    const char *source;
    size_t length;
    const char *chunkname;
    const char *mode; /* "t": source text; "b": bytecode this process dumped */
    int reference;
};

static int op_load(lua_State *L, void *raw) {
    SD_FRAME(L, "op_load");
    struct sd_load_args *args = (struct sd_load_args *)raw;
    if (luaL_loadbufferx(L, args->source, args->length, args->chunkname, args->mode) != LUA_OK) return lua_error(L);
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
    struct sd_load_args args = {source, length, chunkname, "t", 0};
    if (sd_protected(host, op_load, &args, error) != 0) return 0;
    return args.reference;
}

int sd_load_compiled_policy(sd_host *host, const char *bytecode, size_t length, const char *chunkname, sd_error *error) {
    struct sd_load_args args = {bytecode, length, chunkname, "b", 0};
    if (sd_protected(host, op_load, &args, error) != 0) return 0;
    return args.reference;
}

struct sd_dump {
    char *bytes;
    size_t length, capacity;
    int failed;
};

struct sd_compile_args {
    const char *source;
    size_t length;
    const char *chunkname;
    struct sd_dump dump;
};

/* lua_dump's writer: appends to a buffer of our own (the stack holds the function being dumped). */
static int write_dump(lua_State *L, const void *bytes, size_t size, void *raw) {
    (void)L;
    struct sd_dump *dump = (struct sd_dump *)raw;
    if (dump->length + size > dump->capacity) {
        size_t capacity = dump->capacity ? dump->capacity : 4096;
        while (capacity < dump->length + size) capacity *= 2;
        char *grown = (char *)realloc(dump->bytes, capacity);
        if (grown == NULL) {
            dump->failed = 1;
            return 1;
        }
        dump->bytes = grown;
        dump->capacity = capacity;
    }
    memcpy(dump->bytes + dump->length, bytes, size);
    dump->length += size;
    return 0;
}

/* Compiles the text and dumps its bytecode, debug information kept: errors name lines. */
static int op_compile(lua_State *L, void *raw) {
    SD_FRAME(L, "op_compile");
    struct sd_compile_args *args = (struct sd_compile_args *)raw;
    if (luaL_loadbufferx(L, args->source, args->length, args->chunkname, "t") != LUA_OK) return lua_error(L);
    if (lua_dump(L, write_dump, &args->dump, 0) != 0 || args->dump.failed) return luaL_error(L, "out of memory");
    return 0;
}

int sd_compile_policy(sd_host *host, const char *source, size_t length, const char *chunkname,
                      char **bytecode, size_t *bytecode_length, sd_error *error) {
    struct sd_compile_args args = {source, length, chunkname, {NULL, 0, 0, 0}};
    if (sd_protected(host, op_compile, &args, error) != 0) {
        free(args.dump.bytes);
        return -1;
    }
    *bytecode = args.dump.bytes;
    *bytecode_length = args.dump.length;
    return 0;
}

int sd_test_spin_enabled(void) {
#ifdef SD_TEST_HOOKS
    const char *asked = getenv("STACKDAY_TEST_SPIN");
    return asked != NULL && strcmp(asked, "1") == 0;
#else
    return 0;
#endif
}

static int op_release(lua_State *L, void *raw) {
    SD_FRAME(L, "op_release");
    luaL_unref(L, LUA_REGISTRYINDEX, *(int *)raw);
    return 0;
}

void sd_release(sd_host *host, int reference) {
    if (reference <= 0) return;
    sd_error error = {0, NULL};
    sd_run(host, op_release, &reference, &error, 0);
    sd_error_clear(&error);
}

struct sd_text_args {
    int reference;
    const char *function;
    char *text;
};

/* Calls prelude[function](registry[reference]) and copies the string it returns. */
static int op_text(lua_State *L, void *raw) {
    SD_FRAME(L, "op_text");
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

struct sd_data_args {
    const char *source;
    size_t length;
    const char *chunkname;
    char *json;
};

/* Runs a data file (source text) in a fresh sandboxed environment and encodes what it returns. */
static int op_data(lua_State *L, void *raw) {
    SD_FRAME(L, "op_data");
    struct sd_data_args *args = (struct sd_data_args *)raw;
    if (luaL_loadbufferx(L, args->source, args->length, args->chunkname, "t") != LUA_OK) return lua_error(L);
    int chunk = lua_gettop(L);
    sd_push_prelude(L, "make_env");
    lua_call(L, 0, 1);
    if (lua_setupvalue(L, chunk, 1) == NULL) lua_pop(L, 1);
    lua_call(L, 0, 1);
    int value = lua_gettop(L);
    sd_push_prelude(L, "data_json");
    lua_pushvalue(L, value);
    lua_call(L, 1, 1);
    size_t length = 0;
    const char *text = lua_tolstring(L, -1, &length);
    if (text == NULL) return luaL_error(L, "the file's value could not be read");
    args->json = (char *)malloc(length + 1);
    if (args->json == NULL) return luaL_error(L, "out of memory");
    memcpy(args->json, text, length + 1);
    return 0;
}

char *sd_load_data(sd_host *host, const char *source, size_t length, const char *chunkname, sd_error *error) {
    struct sd_data_args args = {source, length, chunkname, NULL};
    if (sd_protected(host, op_data, &args, error) != 0) {
        free(args.json);
        return NULL;
    }
    return args.json;
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
