/* The stack audit: how high each C function of the host filled its frame of the Lua stack,
   against what it may use (LUA_MINSTACK, or more once it called lua_checkstack). */

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

/* The real functions: this file notes nothing itself. */
#define SD_STACK_AUDIT_IMPLEMENTATION
#include "internal.h"

#ifdef DEBUG
_Thread_local struct sd_audit_frame sd_audit_frames[SD_AUDIT_DEPTH];
_Thread_local int sd_audit_depth;

/* Every site that has run, for the report: each is added once, under the lock. */
static pthread_mutex_t sites_lock = PTHREAD_MUTEX_INITIALIZER;
static sd_audit_site *_Atomic sites;

void sd_audit_reset(void) { sd_audit_depth = 0; }

sd_audit_token sd_audit_enter(lua_State *L, sd_audit_site *site) {
    sd_audit_token token = {L, sd_audit_depth};
    if (sd_audit_depth < SD_AUDIT_DEPTH) {
        int top = lua_gettop(L);
        sd_audit_frames[sd_audit_depth] = (struct sd_audit_frame){L, site, top, top + LUA_MINSTACK, top};
    }
    sd_audit_depth++;
    return token;
}

void sd_audit_reserve(lua_State *L, int n) {
    struct sd_audit_frame *frame = sd_audit_current(L);
    if (!frame) return;
    int top = lua_gettop(L);
    if (top > frame->peak) frame->peak = top;
    if (top + n > frame->capacity) frame->capacity = top + n;
}

static void raise_to(_Atomic int *field, int value) {
    int seen = atomic_load_explicit(field, memory_order_relaxed);
    while (value > seen && !atomic_compare_exchange_weak_explicit(field, &seen, value, memory_order_relaxed, memory_order_relaxed)) {}
}

void sd_audit_leave(sd_audit_token *token) {
    /* Frames left by an error inside (a longjmp past their end) go with this one. */
    if (token->depth >= sd_audit_depth) return;
    sd_audit_depth = token->depth + 1;
    sd_audit_note(token->L);
    sd_audit_depth = token->depth;
    if (token->depth >= SD_AUDIT_DEPTH) return;
    struct sd_audit_frame *frame = &sd_audit_frames[token->depth];
    sd_audit_site *site = frame->site;
    if (!atomic_load_explicit(&site->listed, memory_order_acquire)) {
        pthread_mutex_lock(&sites_lock);
        if (!atomic_load_explicit(&site->listed, memory_order_relaxed)) {
            atomic_store_explicit(&site->overrun, -LUA_MINSTACK, memory_order_relaxed);
            site->next = atomic_load_explicit(&sites, memory_order_relaxed);
            atomic_store_explicit(&sites, site, memory_order_release);
            atomic_store_explicit(&site->listed, 1, memory_order_release);
        }
        pthread_mutex_unlock(&sites_lock);
    }
    raise_to(&site->used, frame->peak - frame->base);
    raise_to(&site->overrun, frame->peak - frame->capacity);
    raise_to(&site->reserved, frame->capacity - frame->base - LUA_MINSTACK);
}

size_t sd_stack_audit(char *buffer, size_t size) {
    size_t written = 0;
    for (sd_audit_site *site = atomic_load_explicit(&sites, memory_order_acquire); site; site = site->next) {
        int reserved = atomic_load_explicit(&site->reserved, memory_order_relaxed);
        int n = snprintf(buffer + written, written < size ? size - written : 0, "%s %d %d %d\n", site->name,
                         atomic_load_explicit(&site->used, memory_order_relaxed), reserved > 0 ? LUA_MINSTACK + reserved : LUA_MINSTACK,
                         atomic_load_explicit(&site->overrun, memory_order_relaxed));
        if (n > 0) written += (size_t)n;
    }
    if (size > 0) buffer[written < size ? written : size - 1] = 0;
    return written;
}

#else
/* A release build audits nothing. */
size_t sd_stack_audit(char *buffer, size_t size) {
    if (size > 0) buffer[0] = 0;
    return 0;
}
#endif

int sd_lua_minstack(void) { return LUA_MINSTACK; }
