/* The stack audit: how high each C function of the host filled its frame of the Lua stack,
   against what it may use (LUA_MINSTACK, or more once it called lua_checkstack). */

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

/* The real functions: this file notes nothing itself. */
#define SD_STACK_AUDIT_IMPLEMENTATION
#include "internal.h"

struct frame {
    lua_State *L;
    const char *name;
    int base, capacity, peak;
};

/* The frames open on this thread, innermost last. */
static _Thread_local struct frame frames[32];
static _Thread_local int depth;

struct record {
    const char *name;
    _Atomic int used;     /* the highest depth above the frame's base */
    _Atomic int overrun;  /* the most slots beyond what the frame was guaranteed or reserved (<= 0 when sound) */
    _Atomic int reserved; /* the most it reserved above its base with lua_checkstack */
    _Atomic long long calls;
};

/* Records are only ever added (under the lock) and then read and raised without it: a frame's
   end costs a scan of pointers and a few atomic reads. */
static pthread_mutex_t records_lock = PTHREAD_MUTEX_INITIALIZER;
static struct record records[64];
static _Atomic int record_count;

static void raise_to(_Atomic int *field, int value) {
    int seen = atomic_load_explicit(field, memory_order_relaxed);
    while (value > seen && !atomic_compare_exchange_weak_explicit(field, &seen, value, memory_order_relaxed, memory_order_relaxed)) {}
}

static struct record *record_of(const char *name) {
    int count = atomic_load_explicit(&record_count, memory_order_acquire);
    for (int i = 0; i < count; i++) {
        if (records[i].name == name) return &records[i];
    }
    pthread_mutex_lock(&records_lock);
    struct record *record = NULL;
    count = atomic_load_explicit(&record_count, memory_order_relaxed);
    for (int i = 0; i < count; i++) {
        if (records[i].name == name) { record = &records[i]; break; }
    }
    if (!record && count < (int)(sizeof records / sizeof records[0])) {
        record = &records[count];
        record->name = name;
        atomic_store_explicit(&record->used, 0, memory_order_relaxed);
        atomic_store_explicit(&record->overrun, -LUA_MINSTACK, memory_order_relaxed);
        atomic_store_explicit(&record->reserved, 0, memory_order_relaxed);
        atomic_store_explicit(&record->calls, 0, memory_order_relaxed);
        atomic_store_explicit(&record_count, count + 1, memory_order_release);
    }
    pthread_mutex_unlock(&records_lock);
    return record;
}

void sd_audit_reset(void) { depth = 0; }

sd_audit_token sd_audit_enter(lua_State *L, const char *name) {
    sd_audit_token token = {L, depth};
    if (depth < (int)(sizeof frames / sizeof frames[0])) {
        int top = lua_gettop(L);
        frames[depth] = (struct frame){L, name, top, top + LUA_MINSTACK, top};
    }
    depth++;
    return token;
}

static struct frame *current(lua_State *L) {
    if (depth <= 0 || depth > (int)(sizeof frames / sizeof frames[0])) return NULL;
    struct frame *frame = &frames[depth - 1];
    return frame->L == L ? frame : NULL;
}

void sd_audit_note(lua_State *L) {
    struct frame *frame = current(L);
    if (!frame) return;
    int top = lua_gettop(L);
    if (top > frame->peak) frame->peak = top;
}

void sd_audit_reserve(lua_State *L, int n) {
    struct frame *frame = current(L);
    if (!frame) return;
    sd_audit_note(L);
    int top = lua_gettop(L);
    if (top + n > frame->capacity) frame->capacity = top + n;
}

void sd_audit_leave(sd_audit_token *token) {
    /* Frames left by an error inside (a longjmp past their end) go with this one. */
    if (token->depth >= depth) return;
    depth = token->depth + 1;
    sd_audit_note(token->L);
    depth = token->depth;
    if (token->depth >= (int)(sizeof frames / sizeof frames[0])) return;
    struct frame *frame = &frames[token->depth];
    struct record *record = record_of(frame->name);
    if (!record) return;
    raise_to(&record->used, frame->peak - frame->base);
    raise_to(&record->overrun, frame->peak - frame->capacity);
    raise_to(&record->reserved, frame->capacity - frame->base - LUA_MINSTACK);
    atomic_fetch_add_explicit(&record->calls, 1, memory_order_relaxed);
}

size_t sd_stack_audit(char *buffer, size_t size) {
    size_t written = 0;
    int count = atomic_load_explicit(&record_count, memory_order_acquire);
    for (int i = 0; i < count; i++) {
        int reserved = atomic_load_explicit(&records[i].reserved, memory_order_relaxed);
        int n = snprintf(buffer + written, written < size ? size - written : 0, "%s %d %d %d %lld\n", records[i].name,
                         atomic_load_explicit(&records[i].used, memory_order_relaxed), reserved > 0 ? LUA_MINSTACK + reserved : LUA_MINSTACK,
                         atomic_load_explicit(&records[i].overrun, memory_order_relaxed), atomic_load_explicit(&records[i].calls, memory_order_relaxed));
        if (n > 0) written += (size_t)n;
    }
    if (size > 0) buffer[written < size ? written : size - 1] = 0;
    return written;
}

int sd_lua_minstack(void) { return LUA_MINSTACK; }
