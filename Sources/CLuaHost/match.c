#include "internal.h"

#include <ctype.h>
#include <string.h>

/* string.find, string.match, string.gmatch and string.gsub for policies: Lua 5.4's pattern
   language and results, on a matcher that charges every step to the call's budget. Lua's own
   matcher runs in one C call the instruction hook never sees, so a backtracking pattern (a?^n a^n)
   or a huge bracket class would run for hours; here each step of the matcher, each character a
   class is scanned for and each byte a plain search compares counts as one instruction. */

#define SD_MAXCAPTURES 32
#define SD_MAXCCALLS 200
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)
#define ESC '%'
#define SPECIALS "^$*+?.([%-"
/* Steps are counted here and charged in batches, so a step costs an increment. */
#define CHARGE_BATCH 4096

typedef struct {
    const char *src_init;
    const char *src_end;
    const char *p_end;
    lua_State *L;
    int matchdepth;
    int level;
    long long steps;
    struct {
        const char *init;
        ptrdiff_t len;
    } capture[SD_MAXCAPTURES];
} match_state;

static void step(match_state *ms, long long n) {
    ms->steps += n;
    if (ms->steps >= CHARGE_BATCH) {
        long long charged = ms->steps;
        ms->steps = 0;
        sd_charge(ms->L, charged);
    }
}

static const char *do_match(match_state *ms, const char *s, const char *p);

static int check_capture(match_state *ms, int l) {
    l -= '1';
    if (l < 0 || l >= ms->level || ms->capture[l].len == CAP_UNFINISHED) return luaL_error(ms->L, "invalid capture index %%%d", l + 1);
    return l;
}

static int capture_to_close(match_state *ms) {
    int level = ms->level;
    for (level--; level >= 0; level--)
        if (ms->capture[level].len == CAP_UNFINISHED) return level;
    return luaL_error(ms->L, "invalid pattern capture");
}

static const char *class_end(match_state *ms, const char *p) {
    switch (*p++) {
    case ESC:
        if (p == ms->p_end) luaL_error(ms->L, "malformed pattern (ends with '%%')");
        return p + 1;
    case '[':
        if (*p == '^') p++;
        do { /* look for a ']' */
            if (p == ms->p_end) luaL_error(ms->L, "malformed pattern (missing ']')");
            step(ms, 1);
            if (*(p++) == ESC && p < ms->p_end) p++; /* skip escapes (e.g. '%]') */
        } while (*p != ']');
        return p + 1;
    default: return p;
    }
}

static int match_class(int c, int cl) {
    int res;
    switch (tolower(cl)) {
    case 'a': res = isalpha(c); break;
    case 'c': res = iscntrl(c); break;
    case 'd': res = isdigit(c); break;
    case 'g': res = isgraph(c); break;
    case 'l': res = islower(c); break;
    case 'p': res = ispunct(c); break;
    case 's': res = isspace(c); break;
    case 'u': res = isupper(c); break;
    case 'w': res = isalnum(c); break;
    case 'x': res = isxdigit(c); break;
    default: return cl == c;
    }
    if (isupper(cl)) res = !res;
    return res;
}

static int match_bracket_class(match_state *ms, int c, const char *p, const char *ec) {
    int sig = 1;
    const char *start = p;
    if (*(p + 1) == '^') {
        sig = 0;
        p++; /* skip the '^' */
    }
    int found = !sig;
    while (++p < ec) {
        if (*p == ESC) {
            p++;
            if (match_class(c, (unsigned char)*p)) { found = sig; break; }
        } else if (*(p + 1) == '-' && (p + 2 < ec)) {
            p += 2;
            if ((unsigned char)*(p - 2) <= c && c <= (unsigned char)*p) { found = sig; break; }
        } else if ((unsigned char)*p == c) {
            found = sig;
            break;
        }
    }
    step(ms, p - start);
    return found;
}

static int single_match(match_state *ms, const char *s, const char *p, const char *ep) {
    if (s >= ms->src_end) return 0;
    int c = (unsigned char)*s;
    switch (*p) {
    case '.': return 1;
    case ESC: return match_class(c, (unsigned char)*(p + 1));
    case '[': return match_bracket_class(ms, c, p, ep - 1);
    default: return (unsigned char)*p == c;
    }
}

static const char *match_balance(match_state *ms, const char *s, const char *p) {
    if (p >= ms->p_end - 1) luaL_error(ms->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= ms->src_end || *s != *p) return NULL;
    int b = *p, e = *(p + 1), cont = 1;
    const char *start = s;
    while (++s < ms->src_end) {
        if (*s == e) {
            if (--cont == 0) {
                step(ms, s - start);
                return s + 1;
            }
        } else if (*s == b) {
            cont++;
        }
    }
    step(ms, s - start);
    return NULL;
}

static const char *max_expand(match_state *ms, const char *s, const char *p, const char *ep) {
    ptrdiff_t i = 0;
    while (single_match(ms, s + i, p, ep)) {
        i++;
        step(ms, 1);
    }
    while (i >= 0) { /* try with the maximum repetitions, then one fewer, ... */
        const char *res = do_match(ms, s + i, ep + 1);
        if (res) return res;
        i--;
    }
    return NULL;
}

static const char *min_expand(match_state *ms, const char *s, const char *p, const char *ep) {
    for (;;) {
        const char *res = do_match(ms, s, ep + 1);
        if (res != NULL) return res;
        if (single_match(ms, s, p, ep)) s++;
        else return NULL;
    }
}

static const char *start_capture(match_state *ms, const char *s, const char *p, int what) {
    int level = ms->level;
    if (level >= SD_MAXCAPTURES) luaL_error(ms->L, "too many captures");
    ms->capture[level].init = s;
    ms->capture[level].len = what;
    ms->level = level + 1;
    const char *res = do_match(ms, s, p);
    if (res == NULL) ms->level--; /* undo the capture */
    return res;
}

static const char *end_capture(match_state *ms, const char *s, const char *p) {
    int l = capture_to_close(ms);
    ms->capture[l].len = s - ms->capture[l].init; /* close the capture */
    const char *res = do_match(ms, s, p);
    if (res == NULL) ms->capture[l].len = CAP_UNFINISHED; /* undo it */
    return res;
}

static const char *match_capture(match_state *ms, const char *s, int l) {
    l = check_capture(ms, l);
    size_t len = (size_t)ms->capture[l].len;
    step(ms, (long long)len);
    if ((size_t)(ms->src_end - s) >= len && memcmp(ms->capture[l].init, s, len) == 0) return s + len;
    return NULL;
}

static const char *do_match(match_state *ms, const char *s, const char *p) {
    if (ms->matchdepth-- == 0) luaL_error(ms->L, "pattern too complex");
init:
    step(ms, 1);
    if (p != ms->p_end) {
        switch (*p) {
        case '(':
            if (*(p + 1) == ')') s = start_capture(ms, s, p + 2, CAP_POSITION);
            else s = start_capture(ms, s, p + 1, CAP_UNFINISHED);
            break;
        case ')':
            s = end_capture(ms, s, p + 1);
            break;
        case '$':
            if ((p + 1) != ms->p_end) goto dflt; /* not the end of the pattern: an ordinary '$' */
            s = (s == ms->src_end) ? s : NULL;
            break;
        case ESC:
            switch (*(p + 1)) {
            case 'b':
                s = match_balance(ms, s, p + 2);
                if (s != NULL) {
                    p += 4;
                    goto init;
                }
                break;
            case 'f': {
                p += 2;
                if (*p != '[') luaL_error(ms->L, "missing '[' after '%%f' in pattern");
                const char *ep = class_end(ms, p);
                int previous = (s == ms->src_init) ? '\0' : (unsigned char)*(s - 1);
                int current = (s < ms->src_end) ? (unsigned char)*s : '\0';
                if (!match_bracket_class(ms, previous, p, ep - 1) && match_bracket_class(ms, current, p, ep - 1)) {
                    p = ep;
                    goto init;
                }
                s = NULL;
                break;
            }
            case '0': case '1': case '2': case '3': case '4':
            case '5': case '6': case '7': case '8': case '9':
                s = match_capture(ms, s, (unsigned char)*(p + 1));
                if (s != NULL) {
                    p += 2;
                    goto init;
                }
                break;
            default: goto dflt;
            }
            break;
        default:
        dflt: {
            const char *ep = class_end(ms, p);
            if (!single_match(ms, s, p, ep)) {
                if (*ep == '*' || *ep == '?' || *ep == '-') { /* accept empty? */
                    p = ep + 1;
                    goto init;
                }
                s = NULL;
            } else {
                switch (*ep) {
                case '?': {
                    const char *res = do_match(ms, s + 1, ep + 1);
                    if (res != NULL) {
                        s = res;
                    } else {
                        p = ep + 1;
                        goto init;
                    }
                    break;
                }
                case '+': s = max_expand(ms, s + 1, p, ep); break;
                case '*': s = max_expand(ms, s, p, ep); break;
                case '-': s = min_expand(ms, s, p, ep); break;
                default:
                    s++;
                    p = ep;
                    goto init;
                }
            }
            break;
        }
        }
    }
    ms->matchdepth++;
    return s;
}

static size_t get_onecapture(match_state *ms, int i, const char *s, const char *e, const char **cap) {
    if (i >= ms->level) {
        if (i != 0) luaL_error(ms->L, "invalid capture index %%%d", i + 1);
        *cap = s;
        return (size_t)(e - s);
    }
    ptrdiff_t capl = ms->capture[i].len;
    *cap = ms->capture[i].init;
    if (capl == CAP_UNFINISHED) luaL_error(ms->L, "unfinished capture");
    else if (capl == CAP_POSITION) lua_pushinteger(ms->L, (ms->capture[i].init - ms->src_init) + 1);
    return (size_t)capl;
}

static void push_onecapture(match_state *ms, int i, const char *s, const char *e) {
    const char *cap;
    ptrdiff_t l = (ptrdiff_t)get_onecapture(ms, i, s, e, &cap);
    if (l != CAP_POSITION) lua_pushlstring(ms->L, cap, (size_t)l);
}

static int push_captures(match_state *ms, const char *s, const char *e) {
    int nlevels = (ms->level == 0 && s) ? 1 : ms->level;
    luaL_checkstack(ms->L, nlevels, "too many captures");
    for (int i = 0; i < nlevels; i++) push_onecapture(ms, i, s, e);
    return nlevels;
}

static int no_specials(const char *p, size_t l) {
    size_t upto = 0;
    do {
        const char *special = strpbrk(p + upto, SPECIALS);
        if (special != NULL) return 0;
        upto += strlen(p + upto) + 1; /* may have more after a \0 */
    } while (upto <= l);
    return 1;
}

/* A plain search, charged by the bytes it compares: O(n·m) at worst, and paid for. */
static const char *plain_find(lua_State *L, const char *s1, size_t l1, const char *s2, size_t l2) {
    if (l2 == 0) return s1;
    if (l2 > l1) return NULL;
    const char *init;
    long long steps = 0;
    l2--; /* the first char is checked by memchr */
    l1 = l1 - l2;
    while (l1 > 0 && (init = (const char *)memchr(s1, *s2, l1)) != NULL) {
        steps += (init - s1) / 16 + 1 + (long long)l2;
        if (steps >= CHARGE_BATCH) {
            sd_charge(L, steps);
            steps = 0;
        }
        init++;
        if (memcmp(init, s2 + 1, l2) == 0) return init - 1;
        l1 -= (size_t)(init - s1);
        s1 = init;
    }
    if (steps > 0) sd_charge(L, steps);
    return NULL;
}

static size_t posrelat_start(lua_Integer pos, size_t len) {
    if (pos > 0) return (size_t)pos;
    if (pos == 0) return 1;
    if (pos < -(lua_Integer)len) return 1;
    return len + (size_t)pos + 1;
}

static void prepare_state(match_state *ms, lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
    ms->L = L;
    ms->matchdepth = SD_MAXCCALLS;
    ms->src_init = s;
    ms->src_end = s + ls;
    ms->p_end = p + lp;
    ms->steps = 0;
}

static void reprep_state(match_state *ms) {
    ms->level = 0;
    ms->matchdepth = SD_MAXCCALLS;
}

/* The subject and the pattern, as Lua reads them (a number becomes its text); every step the
   match takes is charged whatever the subject was. */
static const char *check_text(lua_State *L, int arg, size_t *length) { return luaL_checklstring(L, arg, length); }

static int str_find_aux(lua_State *L, int find) {
    size_t ls, lp;
    const char *s = check_text(L, 1, &ls);
    const char *p = check_text(L, 2, &lp);
    size_t init = posrelat_start(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) {
        luaL_pushfail(L);
        return 1;
    }
    if (find && (lua_toboolean(L, 4) || no_specials(p, lp))) {
        const char *s2 = plain_find(L, s + init, ls - init, p, lp);
        if (s2) {
            lua_pushinteger(L, (s2 - s) + 1);
            lua_pushinteger(L, (lua_Integer)((s2 - s) + lp));
            return 2;
        }
    } else {
        match_state ms;
        const char *s1 = s + init;
        int anchor = (*p == '^');
        if (anchor) {
            p++;
            lp--;
        }
        prepare_state(&ms, L, s, ls, p, lp);
        do {
            const char *res;
            reprep_state(&ms);
            if ((res = do_match(&ms, s1, p)) != NULL) {
                if (ms.steps) sd_charge(L, ms.steps);
                if (find) {
                    lua_pushinteger(L, (s1 - s) + 1);
                    lua_pushinteger(L, res - s);
                    return push_captures(&ms, NULL, 0) + 2;
                }
                return push_captures(&ms, s1, res);
            }
        } while (s1++ < ms.src_end && !anchor);
        if (ms.steps) sd_charge(L, ms.steps);
    }
    luaL_pushfail(L);
    return 1;
}

static int sd_str_find(lua_State *L) { SD_FRAME(L, "sd_str_find"); return str_find_aux(L, 1); }
static int sd_str_match(lua_State *L) { SD_FRAME(L, "sd_str_match"); return str_find_aux(L, 0); }

typedef struct {
    const char *src;
    const char *p;
    const char *lastmatch;
    match_state ms;
} gmatch_state;

static int gmatch_aux(lua_State *L) {
    SD_FRAME(L, "gmatch_aux");
    gmatch_state *gm = (gmatch_state *)lua_touserdata(L, lua_upvalueindex(3));
    gm->ms.L = L;
    for (const char *src = gm->src; src <= gm->ms.src_end; src++) {
        const char *e;
        reprep_state(&gm->ms);
        if ((e = do_match(&gm->ms, src, gm->p)) != NULL && e != gm->lastmatch) {
            gm->src = gm->lastmatch = e;
            if (gm->ms.steps) sd_charge(L, gm->ms.steps);
            gm->ms.steps = 0;
            return push_captures(&gm->ms, src, e);
        }
    }
    if (gm->ms.steps) sd_charge(L, gm->ms.steps);
    gm->ms.steps = 0;
    return 0; /* not found */
}

static int sd_str_gmatch(lua_State *L) {
    SD_FRAME(L, "sd_str_gmatch");
    size_t ls, lp;
    const char *s = check_text(L, 1, &ls);
    const char *p = check_text(L, 2, &lp);
    size_t init = posrelat_start(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) init = ls + 1; /* start after the subject's end: no match */
    lua_settop(L, 2);
    gmatch_state *gm = (gmatch_state *)lua_newuserdatauv(L, sizeof(gmatch_state), 0);
    prepare_state(&gm->ms, L, s, ls, p, lp);
    gm->src = s + init;
    gm->p = p;
    gm->lastmatch = NULL;
    lua_pushcclosure(L, gmatch_aux, 3);
    return 1;
}

static void add_s(match_state *ms, luaL_Buffer *b, const char *s, const char *e) {
    size_t l;
    lua_State *L = ms->L;
    const char *news = lua_tolstring(L, 3, &l);
    const char *p;
    while ((p = (const char *)memchr(news, ESC, l)) != NULL) {
        luaL_addlstring(b, news, (size_t)(p - news));
        p++; /* skip ESC */
        if (*p == ESC) {
            luaL_addchar(b, *p);
        } else if (*p == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
        } else if (isdigit((unsigned char)*p)) {
            const char *cap;
            ptrdiff_t resl = (ptrdiff_t)get_onecapture(ms, *p - '1', s, e, &cap);
            if (resl == CAP_POSITION) luaL_addvalue(b);
            else luaL_addlstring(b, cap, (size_t)resl);
        } else {
            luaL_error(L, "invalid use of '%c' in replacement string", ESC);
        }
        l -= (size_t)(p + 1 - news);
        news = p + 1;
    }
    luaL_addlstring(b, news, l);
}

static int add_value(match_state *ms, luaL_Buffer *b, const char *s, const char *e, int tr) {
    lua_State *L = ms->L;
    switch (tr) {
    case LUA_TFUNCTION: {
        lua_pushvalue(L, 3);
        int n = push_captures(ms, s, e);
        lua_call(L, n, 1);
        break;
    }
    case LUA_TTABLE:
        push_onecapture(ms, 0, s, e);
        lua_gettable(L, 3);
        break;
    default:
        add_s(ms, b, s, e);
        return 1;
    }
    if (!lua_toboolean(L, -1)) { /* nil or false: keep the original text */
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
        return 0;
    }
    if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(b);
    return 1;
}

static int sd_str_gsub(lua_State *L) {
    SD_FRAME(L, "sd_str_gsub");
    size_t srcl, lp;
    const char *src = check_text(L, 1, &srcl);
    const char *p = check_text(L, 2, &lp);
    const char *lastmatch = NULL;
    int tr = lua_type(L, 3);
    lua_Integer max_s = luaL_optinteger(L, 4, (lua_Integer)srcl + 1);
    int anchor = (*p == '^');
    lua_Integer n = 0;
    int changed = 0;
    match_state ms;
    luaL_Buffer b;
    luaL_argexpected(L, tr == LUA_TNUMBER || tr == LUA_TSTRING || tr == LUA_TFUNCTION || tr == LUA_TTABLE, 3,
                     "string/function/table");
    luaL_buffinit(L, &b);
    if (anchor) {
        p++;
        lp--;
    }
    prepare_state(&ms, L, src, srcl, p, lp);
    while (n < max_s) {
        const char *e;
        reprep_state(&ms);
        if ((e = do_match(&ms, src, p)) != NULL && e != lastmatch) {
            n++;
            changed = add_value(&ms, &b, src, e, tr) | changed;
            src = lastmatch = e;
        } else if (src < ms.src_end) {
            luaL_addchar(&b, *src++);
        } else {
            break;
        }
        if (anchor) break;
    }
    if (ms.steps) sd_charge(L, ms.steps);
    if (!changed) {
        lua_pushvalue(L, 1); /* nothing changed: return the original string */
    } else {
        luaL_addlstring(&b, src, (size_t)(ms.src_end - src));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, n);
    return 2;
}

void sd_push_matcher(lua_State *L) {
    static const luaL_Reg functions[] = {
        {"find", sd_str_find}, {"match", sd_str_match}, {"gmatch", sd_str_gmatch}, {"gsub", sd_str_gsub}, {NULL, NULL},
    };
    luaL_newlib(L, functions);
}
