#ifndef STACKDAY_LUA_HOST_INTERNAL_H
#define STACKDAY_LUA_HOST_INTERNAL_H

/* What the C core's files share; not part of the interface Swift sees. */

#include "stackday_lua_host.h"

#include <lua5.4/lauxlib.h>
#include <lua5.4/lua.h>
#include <lua5.4/lualib.h>

/* ---- stack_audit.c: how high each C function fills its frame of the Lua stack ----

   Lua guarantees a C function LUA_MINSTACK free slots above its arguments, and more only after
   lua_checkstack. Each C function of the host opens its frame with SD_FRAME, and every call
   below that takes values off the stack (a call, a set, a pop) first notes the depth: the peak
   of a frame is always followed by one of them or by the return, so the highest depth is known
   exactly. `sd_stack_audit` reports it per function; a test holds it against what each may use.
   The audit is built into debug builds (the tests run them); a release build carries none of it. */

#ifdef DEBUG

#include <stdatomic.h>

/* One SD_FRAME site: its name and the most it was seen to use, raised by every thread. */
typedef struct sd_audit_site {
    const char *name;
    _Atomic int used, overrun, reserved, listed;
    struct sd_audit_site *next;
} sd_audit_site;

struct sd_audit_frame {
    lua_State *L;
    sd_audit_site *site;
    int base, capacity, peak;
};

typedef struct {
    lua_State *L;
    int depth;
} sd_audit_token;

#define SD_AUDIT_DEPTH 32
extern _Thread_local struct sd_audit_frame sd_audit_frames[SD_AUDIT_DEPTH];
extern _Thread_local int sd_audit_depth;

sd_audit_token sd_audit_enter(lua_State *L, sd_audit_site *site);
void sd_audit_leave(sd_audit_token *token);
void sd_audit_reserve(lua_State *L, int n);
/* Forgets the frames of an earlier call (left open when an error jumped past their end). */
void sd_audit_reset(void);

/* The innermost frame when it is `L`'s, else NULL. */
static inline struct sd_audit_frame *sd_audit_current(lua_State *L) {
    int depth = sd_audit_depth;
    if (depth <= 0 || depth > SD_AUDIT_DEPTH) return NULL;
    struct sd_audit_frame *frame = &sd_audit_frames[depth - 1];
    return frame->L == L ? frame : NULL;
}

static inline void sd_audit_note(lua_State *L) {
    struct sd_audit_frame *frame = sd_audit_current(L);
    if (!frame) return;
    int top = lua_gettop(L);
    if (top > frame->peak) frame->peak = top;
}

#define SD_FRAME(L, name)                                                                           \
    static sd_audit_site sd_frame_site = {name, 0, 0, 0, 0, NULL};                                  \
    __attribute__((cleanup(sd_audit_leave))) sd_audit_token sd_frame_token = sd_audit_enter((L), &sd_frame_site)

#else
#define SD_FRAME(L, name) ((void)0)
static inline void sd_audit_reset(void) {}
#endif

#if defined(DEBUG) && !defined(SD_STACK_AUDIT_IMPLEMENTATION)
#undef lua_call
#define lua_call(L, n, r) (sd_audit_note(L), lua_callk((L), (n), (r), 0, NULL))
#undef lua_pcall
#define lua_pcall(L, n, r, f) (sd_audit_note(L), lua_pcallk((L), (n), (r), (f), 0, NULL))
#define lua_settop(L, i) (sd_audit_note(L), (lua_settop)((L), (i)))
#define lua_rawset(L, i) (sd_audit_note(L), (lua_rawset)((L), (i)))
#define lua_rawseti(L, i, n) (sd_audit_note(L), (lua_rawseti)((L), (i), (n)))
#define lua_setfield(L, i, k) (sd_audit_note(L), (lua_setfield)((L), (i), (k)))
#define lua_settable(L, i) (sd_audit_note(L), (lua_settable)((L), (i)))
#define lua_setmetatable(L, i) (sd_audit_note(L), (lua_setmetatable)((L), (i)))
#define lua_concat(L, n) (sd_audit_note(L), (lua_concat)((L), (n)))
#define luaL_ref(L, t) (sd_audit_note(L), (luaL_ref)((L), (t)))
#define luaL_pushresult(B) (sd_audit_note((B)->L), (luaL_pushresult)(B))
#define luaL_pushresultsize(B, n) (sd_audit_note((B)->L), (luaL_pushresultsize)((B), (n)))
#define lua_checkstack(L, n) (sd_audit_reserve((L), (n)), (lua_checkstack)((L), (n)))
#define luaL_checkstack(L, n, m) (sd_audit_reserve((L), (n)), (luaL_checkstack)((L), (n), (m)))
#endif

struct sd_host {
    lua_State *L;
    size_t used;               /* bytes held by the state */
    size_t limit;              /* allocation cap in force */
    size_t memory_budget;      /* bytes a call may add */
    long long instruction_budget;
    long long time_budget_ns;  /* thread CPU time a call may take (0: unbounded) */
    size_t state_limit;        /* bytes the state may hold, across calls */
    long long ticks;           /* hook calls in this call */
    long long native;          /* native work charged in this call (sd_charge) */
    size_t allocated;          /* bytes allocated in this call (growth only) */
    long long work_limit;      /* work this call may do: its own budget or what its request has left */
    int work_limit_is_request;
    long long request_deadline_ns; /* thread CPU time at which the call's request ends (0: none) */
    int timer_seen;            /* the thread timer's ticks when last looked at */
    long long call_ticks;      /* timer ticks during this call */
    int spent;                 /* the SD_SPENT_* budget this call passed, or SD_SPENT_NONE */
    int in_call;               /* a charged call is running: allocations count as work */
    int raised;                /* the SD_ERROR_* kind of a budget or answer error raised in this call, or SD_OK */
    int memory_refused;        /* an allocation was refused in this call */
    int watched;               /* the thread's CPU timer watches this call */
    lua_Integer serial;        /* counts the calls into the state: what the prelude keeps per call is told apart by it */
    int prelude;               /* registry reference to the prelude's table of host functions */
    /* ---- authoring aids (authoring.c): none of them costs anything while off ---- */
    int hook_extra;            /* LUA_MASKLINE (coverage) and LUA_MASKRET (diagnosing a wrong answer) beside the count hook */
    long long day;             /* the day the running role call is about (LLONG_MIN: none, or a range) */
    char where[160];           /* "chunk:line" where a budget stopped the call, or "" */
    int diagnose;              /* re-running a call that answered wrongly, to find the line of its return */
    int diag_line_defined;     /* the role function being diagnosed: its first line and source */
    char diag_source[128];
    int return_line;           /* the line of its latest return, or 0 */
    int tracing;               /* trace() writes lines (sd_host_set_authoring) */
    char *trace;               /* the lines written, malloc'd */
    size_t trace_length, trace_capacity;
    long long trace_dropped;   /* lines left out past the bounds */
    lua_Integer trace_serial;  /* the call the per-call count is of */
    int trace_lines_in_call;
    int covering;              /* lines run in `cover_source` are marked in `covered` */
    char cover_source[128];
    unsigned char *covered;    /* one byte a line, SD_COVER_LINES of them */
};

/* The most lines of a policy file coverage counts. */
#define SD_COVER_LINES 65536

/* ---- budget.c: what a charged call may spend (the lowest file: it calls no other) ---- */

/* The host of a state made by sd_host_new; NULL for any other state (whose charges are not counted). */
sd_host *sd_host_of(lua_State *L);

/* The allocator a host's state is made with: capped, and counting the bytes a call allocates. */
lua_Alloc sd_budget_allocator(void);

/* Opens and closes one call's budgets (`charged` 0: the host's own housekeeping, never refused). */
void sd_budget_begin(sd_host *host, int charged);
void sd_budget_end(sd_host *host, int charged);

/* Whether the thread's open request has spent its budget, so that a charged call must fail at once:
   then `kind` and `message` (in `buffer`) say which. */
int sd_request_refuses(int charged, int *kind, char *buffer, size_t size, const char **message);

/* Raises an error of `kind` (SD_ERROR_ANSWER, or a budget kind) with `message`; the kind is
   recorded where it is raised, so the host never has to guess it from the text. */
int sd_raise(lua_State *L, int kind, const char *message);

/* Raises the budget error of the budget the call passed, and again at every instruction after. */
void sd_raise_spent(lua_State *L, sd_host *host);

/* Counts native work done for a policy against its instruction budget (about one instruction per
   unit), raising the budget error once it is spent: a C loop a policy starts is bounded too.
   In a state the host did not make, nothing is counted. */
void sd_charge(lua_State *L, long long instructions);

/* A policy's function is about to be called again within one call into the state (each day of a
   range): what the prelude keeps per call starts over. */
static inline void sd_next_call(lua_State *L) {
    sd_host *host = sd_host_of(L);
    if (host) host->serial++;
}

/* Whether the error object at `index` is the budget error's. */
int sd_is_budget_error(lua_State *L, int index);
/* Whether a budget ran out in this call (an allocation refused counts, even if Lua recovered). */
int sd_budget_spent(const sd_host *host);
/* The SD_ERROR_* kind of an SD_SPENT_* reason. */
int sd_spent_kind(int spent);
/* The message of an SD_SPENT_* reason. */
const char *sd_spent_message(int spent, char *buffer, size_t size);

/* ---- host.c: the state, protected calls and loading policies ---- */

typedef int (*sd_op)(lua_State *L, void *args);

/* Runs `op` in a protected call under the budgets; on failure fills `error` and returns -1. */
int sd_protected(sd_host *host, sd_op op, void *args, sd_error *error);

/* Pushes prelude[name]. */
void sd_push_prelude(lua_State *L, const char *name);

/* ---- authoring.c: trace(), coverage, and where a call stopped or returned wrongly ---- */

/* The hook's per-line and per-return work: coverage marks and the line of a diagnosed return. */
void sd_authoring_hook(lua_State *L, sd_host *host, lua_Debug *ar);
/* Notes where the running policy code is ("chunk:line", prelude frames skipped) in host->where. */
void sd_note_where(lua_State *L, sd_host *host, int from_level);
/* When diagnosing, notes the role function about to be called (at `index`) as the one whose
   returns are watched. */
void sd_diagnose_target(lua_State *L, int index);
/* Pushes the prelude's host functions of authoring: tracing(), trace_line(text). */
void sd_push_authoring(lua_State *L);

/* ---- string_match.c: string.find, match, gmatch and gsub (sd_push_matcher, in the public header) ---- */

/* ---- day_view.c: calendar arithmetic and read-only day views ---- */

void sd_civil_from_days(long long ordinal, long long *year, int *month, int *day);

/* Pushes a table of the calendar functions policies may call (see docs/policies.md). */
void sd_push_calendar(lua_State *L);

/* Walks a read-only day view through days from `first`: consecutive ones, or any in increasing order. */
struct sd_day_fields {
    long long ordinal, year;
    int month, day, weekday, year_day, days_in_month;
};
struct sd_day_cursor {
    int view, keys, backing;
    long long first, current;
    int written;             /* whether `at` holds the fields last written */
    struct sd_day_fields at; /* the day the view shows */
    sd_host *host;           /* the state's host (NULL in a state the host did not make) */
};

/* A policy's function is about to be called again for the cursor's day: sd_next_call without
   looking the host up again. */
static inline void sd_cursor_next_call(struct sd_day_cursor *cursor) {
    if (cursor->host) cursor->host->serial++;
}

/* Pushes a day view (and the values behind it) for `first`; the view's index is `cursor->view`.
   The prelude's make_view is on top of the stack (and is taken off). */
void sd_cursor_begin(lua_State *L, struct sd_day_cursor *cursor, long long first);
/* Moves the view to day `ordinal` (nothing to write when it is there already). */
void sd_cursor_to(lua_State *L, struct sd_day_cursor *cursor, long long ordinal);
/* Moves the view to day `first + i` and returns its number. */
long long sd_cursor_move(lua_State *L, struct sd_day_cursor *cursor, int i);

#endif
