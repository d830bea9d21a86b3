#ifndef STACKDAY_LUA_HOST_H
#define STACKDAY_LUA_HOST_H

#include <stddef.h>

/*
 * The policy host's C core. Every Lua API call that can raise an error runs here, inside a
 * C function called through lua_pcall, so a Lua error never unwinds through Swift frames.
 * Swift passes and receives plain C data only.
 */

typedef struct sd_host sd_host;

/* Why a call failed. The kind is recorded where the error is raised (the instruction hook, the
   allocator, the answer checks), never read back from the message. */
enum {
    SD_OK = 0,
    SD_ERROR_RUNTIME = 1,      /* a Lua error (syntax or runtime); message has chunk:line when Lua knows it */
    SD_ERROR_INSTRUCTIONS = 2, /* the instruction budget ran out */
    SD_ERROR_MEMORY = 3,       /* the memory budget ran out */
    SD_ERROR_ANSWER = 4,       /* the policy answered with a value of the wrong kind */
    SD_ERROR_HOST = 5,         /* the host itself failed (no memory for a new state) */
    SD_ERROR_TIME = 6          /* the CPU time budget ran out */
};

/* Which budget a call (or the request it belongs to) passed. */
enum {
    SD_SPENT_NONE = 0,
    SD_SPENT_CALL_WORK = 1,    /* the call's instructions (VM instructions, native work, bytes allocated) */
    SD_SPENT_CALL_TIME = 2,    /* the call's CPU time */
    SD_SPENT_REQUEST_WORK = 3, /* the request's instructions, shared by all its calls */
    SD_SPENT_REQUEST_TIME = 4  /* the request's CPU time */
};

typedef struct sd_error {
    int kind;
    char *message; /* malloc'd, or NULL; release with sd_error_clear */
} sd_error;

void sd_error_clear(sd_error *error);

/* Creates a state with the safe libraries only (base, string, table, math, utf8) and runs the
   sandbox prelude (Lua source) in it. The prelude is called with one table: `exhausted()`,
   `memory_left()`, `out_of_memory()`, `budget_error()`, `calendar` (the functions policies may
   call) and `quota` (the SD_QUOTA_* codes by name); it returns its table of helpers.
   NULL on failure. */
sd_host *sd_host_new(const char *prelude, size_t prelude_length, sd_error *error);
void sd_host_free(sd_host *host);

/* Per-call budgets: Lua VM instructions, and bytes a call may allocate beyond what the state held. */
void sd_host_set_budgets(sd_host *host, long long instructions, size_t memory_bytes);
/* Bounds that do not depend on the script's own accounting: thread CPU time per call (0 for none),
   and the bytes the state may hold across calls (0 for no bound beyond the per-call budget). */
void sd_host_set_limits(sd_host *host, long long cpu_ns, size_t state_bytes);

/* Opens a request on the calling thread: until sd_request_end, every policy call on this thread,
   in any state, draws from one pool of `work` instructions and `cpu_ns` of thread CPU time; once
   it is spent, calls fail at once. */
void sd_request_begin(long long work, long long cpu_ns);
void sd_request_end(void);
/* The SD_SPENT_* budget the open request passed, or SD_SPENT_NONE. */
int sd_request_spent(void);
/* Whether a request is open on the calling thread. */
int sd_request_open(void);
/* Opens a request that continues one begun elsewhere (another process): `work_left` and
   `cpu_left_ns` are what it has left, the budgets are what its messages name. */
void sd_request_resume(long long work_left, long long cpu_left_ns, long long work_budget, long long cpu_budget_ns);
/* What the open request has left (1), or 0 when none is open. */
int sd_request_left(long long *work, long long *cpu_ns);
/* The open request's whole budgets, as sd_request_begin was given them. */
void sd_request_budgets(long long *work, long long *cpu_ns);
/* Charges the open request with work done for it elsewhere (another process), and the
   SD_SPENT_* reason it ended there, if any. */
void sd_request_take(long long work, long long cpu_ns, int spent);
/* The calling thread's CPU time, in nanoseconds. */
long long sd_thread_cpu_ns(void);

/* Bytes the state holds now. */
size_t sd_host_memory(const sd_host *host);
/* Whether the library `name` (as in package.loaded, e.g. "io") was ever loaded into the state. */
int sd_host_library_loaded(sd_host *host, const char *name);

/* Loads a policy file's source text (never bytecode) in its own environment and runs it.
   Returns a reference > 0, or 0 with `error` set. */
int sd_load_policy(sd_host *host, const char *source, size_t length, const char *chunkname, sd_error *error);
void sd_release(sd_host *host, int reference);

/* Compiles source text (never bytecode) under the call's budgets, without running it, and
   writes its bytecode (malloc'd, for the caller to free) to `bytecode`. 0 on success. */
int sd_compile_policy(sd_host *host, const char *source, size_t length, const char *chunkname,
                      char **bytecode, size_t *bytecode_length, sd_error *error);
/* sd_load_policy for bytecode sd_compile_policy made in this process: loaded in a fresh
   environment and run, like source text. Returns a reference > 0, or 0 with `error` set. */
int sd_load_compiled_policy(sd_host *host, const char *bytecode, size_t length, const char *chunkname, sd_error *error);

/* Whether this build has the test-only calendar.test_spin (a C loop that never returns) and
   the environment asked for it (STACKDAY_TEST_SPIN=1): debug builds only. */
int sd_test_spin_enabled(void);

/* Confines the calling process as a policy runner (confine.c): closes every descriptor above 2,
   dies with its parent, bounds its address space and total CPU time (0: leave as is), may write
   no file, and (Linux on x86-64 and aarch64, seccomp) may make only the system calls of an allow
   list: its pipe, memory never made executable, clocks, its CPU timer and signals, limits and
   signals for itself, exit; every other call is refused with EPERM. Returns 0, or a bit set of what could not be applied (1 address space, 2 CPU,
   4 files, 8 the system-call filter). */
int sd_runner_confine(long long address_space_bytes, long long cpu_seconds);
/* pipe(2) with both ends closed on exec, atomically where the system can. */
int sd_pipe_cloexec(int fds[2]);

/* ---- Authoring aids: off unless asked for, and free while off ---- */

enum {
    SD_AUTHORING_TRACE = 1,    /* trace() in policies writes lines (sd_take_trace) */
    SD_AUTHORING_COVERAGE = 2  /* the lines run in the chunk named `cover_chunk` are marked (sd_take_coverage) */
};
/* Sets the authoring aids for the calls that follow (0: none). Turning coverage on clears its marks. */
void sd_host_set_authoring(sd_host *host, int flags, const char *cover_chunk);
/* The trace lines written since the last take ("chunk:line<TAB>day or -<TAB>text\n" each), malloc'd,
   and how many were left out past the bounds (lines per call, bytes per line and in all). */
char *sd_take_trace(sd_host *host, long long *dropped);
/* Copies the coverage marks (one byte a line, index = line number) into `lines`; returns how many. */
int sd_take_coverage(sd_host *host, unsigned char *lines, int count);
/* Marks in `lines` (index = line number) the lines holding code of the functions a loaded policy's
   table holds, and of the functions they reach through upvalues, when they were compiled from
   `chunk`; a function's closing line is left out (it runs only when control falls off its end). */
int sd_policy_lines(sd_host *host, int policy, const char *chunk, unsigned char *lines, int count, sd_error *error);
/* Runs a data file (source text, a `NAME_test.lua` that returns its cases) in a fresh sandboxed
   environment under the call's budgets, and returns its value as JSON text (malloc'd). */
char *sd_load_data(sd_host *host, const char *source, size_t length, const char *chunkname, sd_error *error);

/* A JSON text describing the policy (roles, description, params, examples); malloc'd. */
char *sd_describe_policy(sd_host *host, int policy, sd_error *error);

/* Binds a policy to one habit: `parameters` is the habit's parameters as a JSON object (or
   nothing when `parameters_length` is 0), decoded by the prelude, merged over the policy's defaults
   and checked by its `validate` function.
   Returns a reference > 0, or 0 with `error` set. */
int sd_bind(sd_host *host, int policy, const char *parameters, size_t parameters_length,
            int started_ordinal, double goal, const char *unit, sd_error *error);

/* The binding's merged parameters as JSON text (malloc'd), for display. */
char *sd_binding_parameters(sd_host *host, int binding, sd_error *error);

/* One role call over days: what sd_schedule, sd_progress, sd_streak and sd_streak_explain read
   (set the fields their comments name; leave the rest zero) and where they write. */
typedef struct sd_days {
    int binding;
    /* 1: when the policy defines the role's range form (dueRange, progressRange, streakRange), the
       whole range is one Lua call; 0: one call a day. */
    int use_range;
    int first_ordinal;
    int count;
    /* Streak: outcome i is on day ordinals[i] (increasing; a quota habit's period ends), and the
       range form is not used; NULL for consecutive days from first_ordinal. */
    const int *ordinals;
    const double *totals;         /* progress, streak: each day's total */
    const unsigned char *status;  /* streak: SD_COMPLETED … SD_NOT_DUE */
    const unsigned char *due;     /* streak */
    const double *progress;       /* streak */
    /* Streak: two values, the rule's initial current and longest (a new revision taking over), or NULL. */
    const long long *carry;
    /* Explain: the first step whose states and why are kept (the ones before only run). */
    int keep_from;
    unsigned char *due_out;       /* schedule: `count` bytes, 0 or 1 */
    double *progress_out;         /* progress: `count` values in 0…1 */
    /* Streak: arrays of `count` for the streak after each outcome, or NULL. */
    long long *step_current, *step_longest;
    long long current, longest;   /* streak: written, the streak after the last outcome */
    /* Explain: written, malloc'd for the caller to free. */
    char *explain_json;
    size_t explain_length;
    int explain;                  /* set by sd_streak_explain */
    /* 1: the call is about no real day (a progress example without one): errors name none. */
    int undated;
    /* Group: how many members each day has; status, totals, progress and goals then hold
       `count * members` values, day by day (member j of day i at i * members + j). */
    int members;
    const char *const *member_names;  /* group: `members` names */
    const char *const *member_units;  /* group: `members` units */
    const double *goals;              /* group */
} sd_days;

/* isDue for `count` days from `first_ordinal`: due_out[i] is 0 or 1. */
int sd_schedule(sd_host *host, sd_days *days, sd_error *error);

/* The kinds of period a quota schedule counts in. */
enum {
    SD_QUOTA_NONE = 0,    /* a day-by-day schedule */
    SD_QUOTA_WEEK = 1,    /* Monday to Sunday */
    SD_QUOTA_MONTH = 2,   /* a calendar month */
    SD_QUOTA_ROLLING = 3  /* the `days` days ending on each day */
};

/* The binding's quota, when its schedule defines quota(params, habit): `kind` is an SD_QUOTA_* code. */
int sd_quota(sd_host *host, int binding, int *times, int *kind, int *days, sd_error *error);

/* progress for `count` days of `totals`: progress_out[i] in 0...1. */
int sd_progress(sd_host *host, sd_days *days, sd_error *error);

/* group(members, params, day) for `count` days of `members` members: progress_out[i] in 0...1. */
int sd_group(sd_host *host, sd_days *days, sd_error *error);
/* remind(day, progress, params) on the day `first_ordinal`, the day's progress in totals[0]:
   due_out[0] is 1 to remind, 0 not to, 2 when the policy defines no remind. */
int sd_remind(sd_host *host, sd_days *days, sd_error *error);

/* Outcome statuses passed to streak rules. */
enum { SD_COMPLETED = 0, SD_MISSED = 1, SD_PENDING = 2, SD_SKIPPED = 3, SD_NOT_DUE = 4 };

/* Folds the streak rule over `count` outcomes; writes the final current and longest. The outcomes
   are consecutive days from `first_ordinal` when `ordinals` is NULL; otherwise outcome i is on day
   `ordinals[i]` (increasing; a quota habit's period ends), and the range form is not used.
   With `step_current` and `step_longest` (arrays of `count`, or NULL), the streak after each
   outcome is written too, in the same single fold. With `carry` (two values, or NULL), the rule's
   initial state gets `current = carry[0]` and `longest = carry[1]`: a new rule revision taking over. */
int sd_streak(sd_host *host, sd_days *days, sd_error *error);

/* The same fold through the per-day function only (never the range form), step by step: writes
   the streak after each outcome, and a JSON text (malloc'd, for the caller to free): the text
   {"states": [before step keep_from, after it, …, after the last], "whys": [why of step keep_from
   or null, …]}, each state the table the rule returned, as JSON; a why is the rule's optional
   second answer, in `explain_json`. Steps before `keep_from` run without being kept. */
int sd_streak_explain(sd_host *host, sd_days *days, sd_error *error);

struct lua_State;

/* Pushes a table of the policies' find, match, gmatch and gsub (string_match.c) onto `L`. In a
   state that sd_host_new did not make, nothing is charged: how tests compare them with Lua's own. */
void sd_push_matcher(struct lua_State *L);

/* The stack audit (stack_audit.c): one line per C function of the host run so far in this
   process, "NAME USED MAY_USE OVERRUN": the most slots it filled above its arguments, what
   it may fill (LUA_MINSTACK, or more once it reserved them), and by how much it ever passed that
   (0 or less when sound). Writes at most `size` bytes with a NUL; returns the length. */
size_t sd_stack_audit(char *buffer, size_t size);

/* LUA_MINSTACK of the Lua this host was built with. */
int sd_lua_minstack(void);

#endif
