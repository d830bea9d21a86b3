#include "internal.h"
#include "pattern.h"

#include <string.h>

/* Finding a text in a text in time linear in both. Most searches are best served by memchr on the
   needle's first byte and memcmp at each candidate; that is quadratic only when candidates keep
   almost matching (a needle "aaa…ab" in a haystack of "aaa…"). So the fast way runs while the
   bytes it has compared stay within a linear allowance of how far it has got, and past that the
   search goes on from where it is with the Knuth–Morris–Pratt automaton (Knuth, Morris and Pratt,
   "Fast pattern matching in strings", SIAM J. Computing 6(2), 1977), which reads each haystack
   byte once. Either way each byte compared is charged. */

/* Compared bytes allowed per haystack byte passed before the automaton takes over. */
#define ALLOWANCE 4

/* For each prefix of the needle, the length of its longest proper border (a prefix that is also a
   suffix): where a partial match falls back to on a mismatch. */
static void borders(const char *needle, uint32_t length, uint32_t *border) {
    border[0] = 0;
    uint32_t k = 0;
    for (uint32_t i = 1; i < length; i++) {
        while (k > 0 && needle[i] != needle[k]) k = border[k - 1];
        if (needle[i] == needle[k]) k++;
        border[i] = k;
    }
}

static const char *automaton(lua_State *L, const char *from, const char *end, const char *needle, size_t length) {
    /* length < UINT32_MAX: the caller checks */
    /* The table is Lua memory: charged to the call, and freed by the collector even if a budget
       error ends the search. */
    uint32_t *border = (uint32_t *)lua_newuserdatauv(L, length * sizeof(uint32_t), 0);
    borders(needle, (uint32_t)length, border);
    sd_charge(L, (long long)length * 2);
    uint32_t matched = 0;
    uint64_t steps = 0;
    const char *found = NULL;
    for (const char *p = from; p < end; p++) {
        while (matched > 0 && *p != needle[matched]) {
            matched = border[matched - 1];
            steps++;
        }
        if (*p == needle[matched]) matched++;
        steps++;
        if (matched == length) {
            found = p + 1 - length;
            break;
        }
        if (steps >= 65536) {
            sd_charge(L, (long long)steps);
            steps = 0;
        }
    }
    sd_charge(L, (long long)steps + 1);
    lua_pop(L, 1);
    return found;
}

const char *sd_plain_search(lua_State *L, const char *haystack, size_t length, const char *needle, size_t needle_length) {
    if (needle_length == 0) return haystack;
    if (needle_length > length) return NULL;
    const char *end = haystack + length;
    const char *last = end - needle_length; /* the last place the needle can start */
    uint64_t compared = 0, charged = 0;
    const char *s = haystack;
    while (s <= last) {
        const char *candidate = memchr(s, needle[0], (size_t)(last - s) + 1);
        compared += (uint64_t)((candidate ? candidate : last + 1) - s) / 8 + 1;
        if (candidate == NULL) break;
        compared += needle_length;
        if (memcmp(candidate + 1, needle + 1, needle_length - 1) == 0) {
            sd_charge(L, (long long)(compared - charged));
            return candidate;
        }
        s = candidate + 1;
        /* The automaton's table has 32-bit entries: a needle past 4 GiB stays on the fast way. */
        if (compared > (uint64_t)(s - haystack) * ALLOWANCE + needle_length * 2 && needle_length < UINT32_MAX) {
            sd_charge(L, (long long)(compared - charged));
            return automaton(L, s, end, needle, needle_length);
        }
        if (compared - charged >= 65536) {
            sd_charge(L, (long long)(compared - charged));
            charged = compared;
        }
    }
    sd_charge(L, (long long)(compared - charged));
    return NULL;
}
