#include "internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a policy's author sees and ordinary evaluation never pays for: trace() lines, the lines a
   set of cases ran (coverage), where a budget stopped a call, and the line of the return that gave
   a wrong answer. Each is off until asked for (sd_host_set_authoring) or until a call fails. */

/* trace() bounds: lines per policy call, bytes per line, and bytes kept in all. */
#define TRACE_LINES_PER_CALL 20
#define TRACE_LINE_BYTES 200
#define TRACE_TOTAL_BYTES 65536

/* Whether `source` is the prelude's (its frames are the host's, never a policy's). */
static int is_prelude(const char *source) { return source && strcmp(source, "@prelude.lua") == 0; }

void sd_note_where(lua_State *L, sd_host *host, int from_level) {
    lua_Debug ar;
    for (int level = from_level; level < from_level + 24 && lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0 || is_prelude(ar.source)) continue;
        snprintf(host->where, sizeof host->where, "%s:%d", ar.short_src, ar.currentline);
        return;
    }
}

void sd_diagnose_target(lua_State *L, int index) {
    sd_host *host = sd_host_of(L);
    if (host == NULL || !host->diagnose) return;
    lua_Debug ar;
    lua_pushvalue(L, index);
    if (lua_getinfo(L, ">S", &ar) && ar.source) {
        host->diag_line_defined = ar.linedefined;
        snprintf(host->diag_source, sizeof host->diag_source, "%s", ar.source);
    }
}

void sd_authoring_hook(lua_State *L, sd_host *host, lua_Debug *ar) {
    if (ar->event == LUA_HOOKLINE) {
        if (!host->covering || host->covered == NULL || ar->currentline <= 0 || ar->currentline >= SD_COVER_LINES) return;
        if (!lua_getinfo(L, "S", ar) || ar->source == NULL || strcmp(ar->source, host->cover_source) != 0) return;
        host->covered[ar->currentline] = 1;
        return;
    }
    if ((ar->event == LUA_HOOKRET) && host->diagnose) {
        if (!lua_getinfo(L, "Sl", ar) || ar->source == NULL) return;
        if (ar->linedefined == host->diag_line_defined && strcmp(ar->source, host->diag_source) == 0 && ar->currentline > 0) {
            host->return_line = ar->currentline;
        }
    }
}

/* tracing() for the prelude: whether trace() writes (the policy's trace() costs one call when not). */
static int sd_tracing(lua_State *L) {
    SD_FRAME(L, "sd_tracing");
    sd_host *host = sd_host_of(L);
    lua_pushboolean(L, host != NULL && host->tracing);
    return 1;
}

/* Appends `length` bytes to the host's trace; 0 when the total bound is reached. */
static int trace_append(sd_host *host, const char *bytes, size_t length) {
    if (host->trace_length + length > TRACE_TOTAL_BYTES) return 0;
    if (host->trace_length + length + 1 > host->trace_capacity) {
        size_t capacity = host->trace_capacity ? host->trace_capacity * 2 : 4096;
        while (capacity < host->trace_length + length + 1) capacity *= 2;
        char *grown = realloc(host->trace, capacity);
        if (grown == NULL) return 0;
        host->trace = grown;
        host->trace_capacity = capacity;
    }
    memcpy(host->trace + host->trace_length, bytes, length);
    host->trace_length += length;
    host->trace[host->trace_length] = 0;
    return 1;
}

/* trace_line(text) for the prelude: one line of the policy's trace(), with where it was called
   (the policy's frame, two above: the prelude's trace wrapper calls this) and the day of the call.
   A line is "chunk:line<TAB>YYYY-MM-DD or -<TAB>text", its text cut to TRACE_LINE_BYTES with tabs
   and newlines as spaces. */
static int sd_trace_line(lua_State *L) {
    SD_FRAME(L, "sd_trace_line");
    sd_host *host = sd_host_of(L);
    size_t length = 0;
    const char *text = luaL_checklstring(L, 1, &length);
    if (host == NULL || !host->tracing) return 0;
    if (host->trace_serial != host->serial) {
        host->trace_serial = host->serial;
        host->trace_lines_in_call = 0;
    }
    if (host->trace_lines_in_call >= TRACE_LINES_PER_CALL) {
        host->trace_dropped++;
        return 0;
    }
    host->trace_lines_in_call++;
    char head[224] = "?";
    lua_Debug ar;
    for (int level = 1; level < 8 && lua_getstack(L, level, &ar); level++) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 && !is_prelude(ar.source)) {
            snprintf(head, sizeof head, "%s:%d", ar.short_src, ar.currentline);
            break;
        }
    }
    char day[16] = "-";
    if (host->day != LLONG_MIN) {
        long long year;
        int month, dom;
        sd_civil_from_days(host->day, &year, &month, &dom);
        snprintf(day, sizeof day, "%04lld-%02d-%02d", year, month, dom);
    }
    char line[TRACE_LINE_BYTES + 256];
    int used = snprintf(line, sizeof line, "%s\t%s\t", head, day);
    size_t keep = length > TRACE_LINE_BYTES ? TRACE_LINE_BYTES : length;
    /* Cut on a character boundary of UTF-8. */
    while (keep > 0 && keep < length && ((unsigned char)text[keep] & 0xC0) == 0x80) keep--;
    for (size_t i = 0; i < keep && used < (int)sizeof line - 2; i++) {
        char c = text[i];
        line[used++] = (c == '\n' || c == '\t' || c == '\r') ? ' ' : c;
    }
    line[used++] = '\n';
    if (!trace_append(host, line, (size_t)used)) host->trace_dropped++;
    return 0;
}

void sd_push_authoring(lua_State *L) {
    lua_pushcfunction(L, sd_tracing);
    lua_setfield(L, -2, "tracing");
    lua_pushcfunction(L, sd_trace_line);
    lua_setfield(L, -2, "trace_line");
}

void sd_host_set_authoring(sd_host *host, int flags, const char *cover_chunk) {
    host->tracing = (flags & SD_AUTHORING_TRACE) != 0;
    int cover = (flags & SD_AUTHORING_COVERAGE) != 0 && cover_chunk != NULL;
    if (cover && host->covered == NULL) host->covered = calloc(SD_COVER_LINES, 1);
    host->covering = cover && host->covered != NULL;
    if (host->covering) {
        snprintf(host->cover_source, sizeof host->cover_source, "%s", cover_chunk);
        memset(host->covered, 0, SD_COVER_LINES);
    }
}

char *sd_take_trace(sd_host *host, long long *dropped) {
    char *text = host->trace;
    if (dropped) *dropped = host->trace_dropped;
    host->trace = NULL;
    host->trace_length = host->trace_capacity = 0;
    host->trace_dropped = 0;
    if (text == NULL) {
        text = malloc(1);
        if (text) text[0] = 0;
    }
    return text;
}

int sd_take_coverage(sd_host *host, unsigned char *lines, int count) {
    if (host->covered == NULL) return 0;
    int n = count < SD_COVER_LINES ? count : SD_COVER_LINES;
    memcpy(lines, host->covered, (size_t)n);
    return n;
}

struct sd_lines_args {
    int policy;
    const char *chunk;
    unsigned char *lines;
    int count;
};

/* Marks the active lines (lines holding code) of `f`, when it is a Lua function of `chunk`, and
   walks its upvalues: helpers a role function calls are reached through them. `seen` (a table on
   the stack) keeps each function once. */
static void mark_function(lua_State *L, int f, struct sd_lines_args *args, int seen, int depth) {
    if (depth > 16 || !lua_isfunction(L, f) || lua_iscfunction(L, f)) return;
    lua_pushvalue(L, f);
    if (lua_rawget(L, seen) != LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    lua_pushvalue(L, f);
    lua_pushboolean(L, 1);
    lua_rawset(L, seen);
    lua_Debug ar;
    lua_pushvalue(L, f);
    if (!lua_getinfo(L, ">SL", &ar)) {
        lua_pop(L, 1);
        return;
    }
    int active = lua_gettop(L);
    if (ar.source && strcmp(ar.source, args->chunk) == 0 && lua_istable(L, active)) {
        lua_pushnil(L);
        while (lua_next(L, active)) {
            lua_Integer line = lua_tointeger(L, -2);
            /* The implicit return at a function's `end` runs only when control falls off its end. */
            if (line > 0 && line < args->count && line != ar.lastlinedefined) args->lines[line] = 1;
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    for (int i = 1;; i++) {
        if (lua_getupvalue(L, f, i) == NULL) break;
        int value = lua_gettop(L);
        mark_function(L, value, args, seen, depth + 1);
        lua_settop(L, value - 1);
    }
}

static int op_lines(lua_State *L, void *raw) {
    SD_FRAME(L, "op_lines");
    struct sd_lines_args *args = (struct sd_lines_args *)raw;
    luaL_checkstack(L, 40, "the policy's lines");
    lua_createtable(L, 0, 16);
    int seen = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, args->policy);
    lua_getfield(L, -1, "policy");
    int policy = lua_gettop(L);
    /* The policy table as stored (it is sealed behind a proxy): its functions and their helpers. */
    sd_push_prelude(L, "raw_fields");
    lua_pushvalue(L, policy);
    lua_call(L, 1, 1);
    int fields = lua_gettop(L);
    if (!lua_istable(L, fields)) return 0;
    lua_pushnil(L);
    while (lua_next(L, fields)) {
        mark_function(L, lua_gettop(L), args, seen, 0);
        lua_pop(L, 1);
    }
    return 0;
}

int sd_policy_lines(sd_host *host, int policy, const char *chunk, unsigned char *lines, int count, sd_error *error) {
    struct sd_lines_args args = {policy, chunk, lines, count};
    return sd_protected(host, op_lines, &args, error);
}
