/* The stack audit: how high each C function of the host filled its frame of the Lua stack,
   against what it may use (LUA_MINSTACK, or more once it called lua_checkstack). */

#include <pthread.h>
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
    int used;     /* the highest depth above the frame's base */
    int overrun;  /* the most slots beyond what the frame was guaranteed or reserved (<= 0 when sound) */
    int reserved; /* the most it reserved above its base with lua_checkstack */
    long long calls;
};

static pthread_mutex_t records_lock = PTHREAD_MUTEX_INITIALIZER;
static struct record records[64];
static int record_count;

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
    pthread_mutex_lock(&records_lock);
    struct record *record = NULL;
    for (int i = 0; i < record_count; i++) {
        if (records[i].name == frame->name) { record = &records[i]; break; }
    }
    if (!record && record_count < (int)(sizeof records / sizeof records[0])) {
        record = &records[record_count++];
        *record = (struct record){frame->name, 0, -LUA_MINSTACK, 0, 0};
    }
    if (record) {
        int used = frame->peak - frame->base, overrun = frame->peak - frame->capacity, reserved = frame->capacity - frame->base - LUA_MINSTACK;
        if (used > record->used) record->used = used;
        if (overrun > record->overrun) record->overrun = overrun;
        if (reserved > record->reserved) record->reserved = reserved;
        record->calls++;
    }
    pthread_mutex_unlock(&records_lock);
}

size_t sd_stack_audit(char *buffer, size_t size) {
    pthread_mutex_lock(&records_lock);
    size_t written = 0;
    for (int i = 0; i < record_count; i++) {
        int n = snprintf(buffer + written, written < size ? size - written : 0, "%s %d %d %d %lld\n", records[i].name, records[i].used,
                         records[i].reserved > 0 ? LUA_MINSTACK + records[i].reserved : LUA_MINSTACK, records[i].overrun, records[i].calls);
        if (n > 0) written += (size_t)n;
    }
    pthread_mutex_unlock(&records_lock);
    if (size > 0) buffer[written < size ? written : size - 1] = 0;
    return written;
}

int sd_lua_minstack(void) { return LUA_MINSTACK; }
