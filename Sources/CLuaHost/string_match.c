#include "internal.h"
#include "pattern.h"

#include <ctype.h>
#include <string.h>

/* string.find, string.match, string.gmatch and string.gsub for policies, on the compiled patterns
   of pattern_compile.c and the machine of pattern_run.c. Arguments, results and error messages
   are Lua 5.4's (its manual, §6.4); the work is charged to the call's budget as it is done.

   Each state keeps the programs of the patterns it used last, by their text, in a table that is
   an upvalue of the four functions: a pattern used in a loop is compiled once. */

/* Patterns up to this many bytes are kept; the table holds at most CACHE_ENTRIES of them. */
#define CACHE_PATTERN_BYTES 128
#define CACHE_ENTRIES 64
#define CACHE (lua_upvalueindex(1))

/* The program for the pattern at `index`, pushed; '^' at its start is an anchor when `anchors`. */
static const sd_program *program_for(lua_State *L, int index, int anchors) {
    size_t length;
    const char *text = lua_tolstring(L, index, &length);
    int anchored = anchors && length > 0 && text[0] == '^';
    /* The same text compiles alike for every function, but for a leading '^' where it is a byte. */
    int kept = length <= CACHE_PATTERN_BYTES && (anchors || text[0] != '^');
    if (kept) {
        lua_pushvalue(L, index);
        if (lua_rawget(L, CACHE) == LUA_TUSERDATA) return (const sd_program *)lua_touserdata(L, -1);
        lua_pop(L, 1);
    }
    sd_program *program = (sd_program *)sd_pattern_compile(L, text + anchored, length - (size_t)anchored);
    program->anchored = (uint8_t)anchored;
    if (kept) {
        int compiled = lua_gettop(L);
        lua_rawgeti(L, CACHE, 0);
        lua_Integer entries = lua_tointeger(L, -1);
        lua_pop(L, 1);
        if (entries >= CACHE_ENTRIES) {
            /* Full: start over rather than track which entry is oldest. */
            lua_pushnil(L);
            while (lua_next(L, CACHE) != 0) {
                lua_pop(L, 1);
                lua_pushvalue(L, -1);
                lua_pushnil(L);
                lua_rawset(L, CACHE);
            }
            entries = 0;
        }
        lua_pushvalue(L, index);
        lua_pushvalue(L, compiled);
        lua_rawset(L, CACHE);
        lua_pushinteger(L, entries + 1);
        lua_rawseti(L, CACHE, 0);
    }
    return program;
}

static void match_begin(sd_match *match, lua_State *L, const char *subject, size_t length) {
    match->L = L;
    match->subject = subject;
    match->end = subject + length;
    match->steps = 0;
    match->level = 0;
}

/* Where a search given `init` (1-based, negative from the end) starts, 0-based; past `length`
   when it starts after the subject's end. */
static size_t start_offset(lua_Integer init, size_t length) {
    if (init > 0) return (size_t)init - 1;
    if (init == 0 || init < -(lua_Integer)length) return 0;
    return length - (size_t)(-init);
}

/* Capture `i` of a match of [start, end): its text, or its position as a number. Index 0 of a
   pattern without captures is the whole match. */
static void push_capture(sd_match *match, int i, const char *start, const char *end) {
    lua_State *L = match->L;
    if (i >= match->level) {
        if (i != 0) luaL_error(L, "invalid capture index %%%d", i + 1);
        lua_pushlstring(L, start, (size_t)(end - start));
        return;
    }
    ptrdiff_t length = match->capture[i].length;
    if (length == SD_CAPTURE_OPEN) luaL_error(L, "unfinished capture");
    if (length == SD_CAPTURE_POSITION) lua_pushinteger(L, (lua_Integer)(match->capture[i].start - match->subject) + 1);
    else lua_pushlstring(L, match->capture[i].start, (size_t)length);
}

/* Every capture, or the whole match when there are none and `start` is given; returns how many. */
static int push_captures(sd_match *match, const char *start, const char *end) {
    int count = match->level == 0 && start != NULL ? 1 : match->level;
    luaL_checkstack(match->L, count + 2, "too many captures");
    for (int i = 0; i < count; i++) push_capture(match, i, start, end);
    return count;
}

/* Whether Lua would search for the pattern as plain text: none of its bytes is special. */
static int is_plain(lua_State *L, const char *pattern, size_t length) {
    static const char specials[] = "^$*+?.([%-";
    sd_charge(L, (long long)(length / 8) + 1);
    for (size_t i = 0; i < length; i++)
        if (memchr(specials, pattern[i], sizeof specials - 1) != NULL) return 0;
    return 1;
}

/* find (`find` 1) and match (0). */
static int search(lua_State *L, int find) {
    size_t length, pattern_length;
    const char *subject = luaL_checklstring(L, 1, &length);
    const char *pattern = luaL_checklstring(L, 2, &pattern_length);
    size_t from = start_offset(luaL_optinteger(L, 3, 1), length);
    if (from > length) {
        luaL_pushfail(L);
        return 1;
    }
    if (find && (lua_toboolean(L, 4) || is_plain(L, pattern, pattern_length))) {
        const char *at = sd_plain_search(L, subject + from, length - from, pattern, pattern_length);
        if (at == NULL) {
            luaL_pushfail(L);
            return 1;
        }
        lua_pushinteger(L, (lua_Integer)(at - subject) + 1);
        lua_pushinteger(L, (lua_Integer)(at - subject + pattern_length));
        return 2;
    }
    const sd_program *program = program_for(L, 2, 1);
    sd_match match;
    match_begin(&match, L, subject, length);
    const char *start;
    const char *end = sd_pattern_search(&match, program, subject + from, program->anchored, NULL, &start);
    sd_match_settle(&match);
    if (end == NULL) {
        luaL_pushfail(L);
        return 1;
    }
    if (!find) return push_captures(&match, start, end);
    lua_pushinteger(L, (lua_Integer)(start - subject) + 1);
    lua_pushinteger(L, (lua_Integer)(end - subject));
    return push_captures(&match, NULL, NULL) + 2;
}

static int text_find(lua_State *L) {
    SD_FRAME(L, "text_find");
    return search(L, 1);
}

static int text_match(lua_State *L) {
    SD_FRAME(L, "text_match");
    return search(L, 0);
}

/* Where a gmatch iteration goes on: offsets into its subject. */
typedef struct {
    size_t position;
    size_t last_end;
    int has_last;
} iteration;

/* The iterator: upvalues are the subject, the pattern, its program and the iteration. */
static int gmatch_step(lua_State *L) {
    SD_FRAME(L, "gmatch_step");
    size_t length;
    const char *subject = lua_tolstring(L, lua_upvalueindex(1), &length);
    const sd_program *program = (const sd_program *)lua_touserdata(L, lua_upvalueindex(3));
    iteration *at = (iteration *)lua_touserdata(L, lua_upvalueindex(4));
    if (at->position > length) return 0;
    sd_match match;
    match_begin(&match, L, subject, length);
    const char *start;
    const char *end = sd_pattern_search(&match, program, subject + at->position, 0,
                                        at->has_last ? subject + at->last_end : NULL, &start);
    sd_match_settle(&match);
    if (end == NULL) {
        at->position = length + 1; /* nothing more: every later call answers nothing at once */
        return 0;
    }
    at->position = at->last_end = (size_t)(end - subject);
    at->has_last = 1;
    return push_captures(&match, start, end);
}

static int text_gmatch(lua_State *L) {
    SD_FRAME(L, "text_gmatch");
    size_t length;
    luaL_checklstring(L, 1, &length);
    luaL_checklstring(L, 2, NULL);
    size_t from = start_offset(luaL_optinteger(L, 3, 1), length);
    lua_settop(L, 2);
    program_for(L, 2, 0);
    iteration *at = (iteration *)lua_newuserdatauv(L, sizeof(iteration), 0);
    at->position = from > length ? length + 1 : from;
    at->last_end = 0;
    at->has_last = 0;
    lua_pushcclosure(L, gmatch_step, 4);
    return 1;
}

/* The replacement text of a string (or number) replacement: %0-%9 and %%. */
static void expand(sd_match *match, luaL_Buffer *buffer, const char *start, const char *end) {
    lua_State *L = match->L;
    size_t length;
    const char *text = lua_tolstring(L, 3, &length);
    const char *stop = text + length;
    sd_charge(L, (long long)length + 1);
    while (text < stop) {
        const char *escape = memchr(text, '%', (size_t)(stop - text));
        if (escape == NULL) {
            luaL_addlstring(buffer, text, (size_t)(stop - text));
            return;
        }
        luaL_addlstring(buffer, text, (size_t)(escape - text));
        unsigned char what = escape + 1 < stop ? (unsigned char)escape[1] : 0;
        if (what == '%') {
            luaL_addchar(buffer, '%');
        } else if (what == '0') {
            luaL_addlstring(buffer, start, (size_t)(end - start));
        } else if (isdigit(what)) {
            push_capture(match, what - '1', start, end);
            luaL_addvalue(buffer); /* a position is added as its numeral */
        } else {
            luaL_error(L, "invalid use of '%%' in replacement string");
        }
        text = escape + 2;
    }
}

/* Adds the replacement of the match [start, end); returns whether it differs from the match. */
static int replace_one(sd_match *match, luaL_Buffer *buffer, const char *start, const char *end, int kind) {
    lua_State *L = match->L;
    if (kind == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int count = push_captures(match, start, end);
        lua_call(L, count, 1);
    } else if (kind == LUA_TTABLE) {
        push_capture(match, 0, start, end);
        lua_gettable(L, 3);
    } else {
        expand(match, buffer, start, end);
        return 1;
    }
    if (!lua_toboolean(L, -1)) { /* nil or false: the match stays as it was */
        lua_pop(L, 1);
        luaL_addlstring(buffer, start, (size_t)(end - start));
        return 0;
    }
    if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(buffer);
    return 1;
}

static int text_gsub(lua_State *L) {
    SD_FRAME(L, "text_gsub");
    size_t length;
    const char *subject = luaL_checklstring(L, 1, &length);
    luaL_checklstring(L, 2, NULL);
    int kind = lua_type(L, 3);
    lua_Integer most = luaL_optinteger(L, 4, (lua_Integer)length + 1);
    luaL_argexpected(L, kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION || kind == LUA_TTABLE, 3,
                     "string/function/table");
    lua_settop(L, 4);
    const sd_program *program = program_for(L, 2, 1);
    luaL_Buffer buffer;
    luaL_buffinit(L, &buffer);
    sd_match match;
    match_begin(&match, L, subject, length);
    const char *at = subject, *last_end = NULL;
    lua_Integer count = 0;
    int changed = 0;
    while (count < most) {
        const char *start;
        const char *end = sd_pattern_search(&match, program, at, program->anchored, last_end, &start);
        if (end == NULL) break;
        sd_match_settle(&match); /* a replacement may run Lua code: the search is paid for first */
        luaL_addlstring(&buffer, at, (size_t)(start - at));
        count++;
        changed |= replace_one(&match, &buffer, start, end, kind);
        at = last_end = end;
        if (program->anchored) break;
    }
    sd_match_settle(&match);
    if (!changed) {
        lua_pushvalue(L, 1); /* nothing replaced: the subject itself */
    } else {
        luaL_addlstring(&buffer, at, (size_t)(subject + length - at));
        luaL_pushresult(&buffer);
    }
    lua_pushinteger(L, count);
    return 2;
}

void sd_push_matcher(lua_State *L) {
    static const luaL_Reg functions[] = {
        {"find", text_find}, {"match", text_match}, {"gmatch", text_gmatch}, {"gsub", text_gsub}, {NULL, NULL},
    };
    luaL_newlibtable(L, functions);
    lua_newtable(L); /* the programs kept, shared by the four */
    luaL_setfuncs(L, functions, 1);
}
