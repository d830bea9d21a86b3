#define _GNU_SOURCE
#include "internal.h"

#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The budgets every charged call runs under: the allocator that caps memory and counts bytes as
   work, the instruction hook, the thread's CPU timer, the request's shared pool, and the native
   work C code charges. The lowest file of the C core: the host, the calendar and the matcher call
   down into it, and it calls none of them. */

/* The count hook fires every HOOK_STEP VM instructions. */
#define HOOK_STEP 1000
/* The thread's CPU timer ticks every TIMER_PERIOD_NS of its CPU time. */
#define TIMER_PERIOD_NS 25000000LL
/* Bytes a call allocates count as work: one instruction per ALLOC_BYTES_PER_INSTRUCTION bytes, so
   a loop that copies (s = s .. "x", s:upper() over and over) ends like one that computes. */
#define ALLOC_BYTES_PER_INSTRUCTION 2

/* The request the calling thread is answering, when it opened one: a pool of work and a CPU
   deadline that every call on this thread draws from, whichever state it runs in. */
static _Thread_local struct {
    int active;
    long long work_left;
    long long cpu_deadline_ns;
    long long work_budget;
    long long cpu_budget_ns;
    int spent; /* the SD_SPENT_* reason once the request's budget ran out */
} request;

long long sd_thread_cpu_ns(void) {
    struct timespec now;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0) return 0;
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

void sd_request_begin(long long work, long long cpu_ns) {
    request.active = 1;
    request.work_budget = work;
    request.cpu_budget_ns = cpu_ns;
    request.work_left = work;
    request.cpu_deadline_ns = sd_thread_cpu_ns() + cpu_ns;
    request.spent = SD_SPENT_NONE;
}

void sd_request_resume(long long work_left, long long cpu_left_ns, long long work_budget, long long cpu_budget_ns) {
    sd_request_begin(work_left, cpu_left_ns);
    request.work_budget = work_budget;
    request.cpu_budget_ns = cpu_budget_ns;
}

int sd_request_left(long long *work, long long *cpu_ns) {
    if (!request.active) return 0;
    long long cpu = request.cpu_deadline_ns - sd_thread_cpu_ns();
    *work = request.work_left > 0 ? request.work_left : 0;
    *cpu_ns = cpu > 0 ? cpu : 0;
    return 1;
}

void sd_request_budgets(long long *work, long long *cpu_ns) {
    *work = request.work_budget;
    *cpu_ns = request.cpu_budget_ns;
}

void sd_request_take(long long work, long long cpu_ns, int spent) {
    if (!request.active) return;
    request.work_left -= work > 0 ? work : 0;
    request.cpu_deadline_ns -= cpu_ns > 0 ? cpu_ns : 0;
    if (spent == SD_SPENT_REQUEST_WORK || spent == SD_SPENT_REQUEST_TIME) request.spent = spent;
    else if (request.work_left <= 0) request.spent = SD_SPENT_REQUEST_WORK;
    else if (request.cpu_deadline_ns <= sd_thread_cpu_ns()) request.spent = SD_SPENT_REQUEST_TIME;
}

void sd_request_end(void) { request.active = 0; }

int sd_request_spent(void) { return request.active ? request.spent : SD_SPENT_NONE; }

int sd_request_open(void) { return request.active; }

static void sd_hook(lua_State *L, lua_Debug *ar);

/* The last resort: a timer on the thread's CPU clock, ticking every TIMER_PERIOD_NS of the
   thread's CPU time once the thread has made its first call (it costs nothing while the thread
   waits: its CPU clock stands still). Each tick's signal handler counts the tick and, when a call
   is running, sets a count hook of one instruction on its state (lua_sethook may be called
   asynchronously). The hook then compares the ticks the call has seen with its budget (a call of
   budget B ends after B / TIMER_PERIOD_NS + 1 ticks: between B and B + one period of CPU time),
   and reads the clock for the request's deadline: whatever the call spent its time on (a VM
   instruction over huge strings, a C library loop), it ends at the next instruction. A call
   costs no system call and no clock read for this. */
static pthread_once_t timer_once = PTHREAD_ONCE_INIT;
static pthread_key_t timer_key;
static int timer_signal;
static _Thread_local struct {
    int ready;
    timer_t id;
    lua_State *volatile state;
    volatile sig_atomic_t ticks;
    volatile int extra; /* the watched call's hook_extra */
} cpu_timer;

static void on_cpu_timer(int signal_number) {
    (void)signal_number;
    cpu_timer.ticks++;
    lua_State *L = cpu_timer.state;
    if (L) lua_sethook(L, sd_hook, LUA_MASKCOUNT | cpu_timer.extra, 1);
}

static void delete_timer(void *value) {
    timer_t *id = value;
    timer_delete(*id);
    free(id);
}

static void install_timer_signal(void) {
    timer_signal = SIGRTMIN + 3;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_cpu_timer;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(timer_signal, &action, NULL);
    pthread_key_create(&timer_key, delete_timer);
}

/* Starts the thread's ticking timer, once per thread. */
static void start_cpu_timer(void) {
    if (cpu_timer.ready) return;
    cpu_timer.ready = 1; /* tried once: a thread that cannot have a timer runs on the other budgets */
    pthread_once(&timer_once, install_timer_signal);
    struct sigevent event;
    memset(&event, 0, sizeof event);
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = timer_signal;
    event._sigev_un._tid = (pid_t)syscall(SYS_gettid); /* sigev_notify_thread_id */
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &cpu_timer.id) != 0) return;
    /* Threads of a pool (libdispatch's among them) may block every asynchronous signal: this one
       is sent to this thread only, by its own timer. */
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, timer_signal);
    pthread_sigmask(SIG_UNBLOCK, &only, NULL);
    timer_t *owned = malloc(sizeof *owned);
    if (owned) {
        *owned = cpu_timer.id;
        pthread_setspecific(timer_key, owned);
    }
    struct itimerspec every;
    every.it_value.tv_sec = every.it_interval.tv_sec = TIMER_PERIOD_NS / 1000000000LL;
    every.it_value.tv_nsec = every.it_interval.tv_nsec = TIMER_PERIOD_NS % 1000000000LL;
    timer_settime(cpu_timer.id, 0, &every, NULL);
}


static void *sd_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

sd_host *sd_host_of(lua_State *L) {
    void *ud = NULL;
    return lua_getallocf(L, &ud) == sd_alloc ? (sd_host *)ud : NULL;
}

lua_Alloc sd_budget_allocator(void) { return sd_alloc; }

/* The error object of a budget error: which budget is recorded in the host when it is raised. */
static const char budget_sentinel = 0;

int sd_is_budget_error(lua_State *L, int index) {
    return lua_type(L, index) == LUA_TLIGHTUSERDATA && lua_touserdata(L, index) == (void *)&budget_sentinel;
}

static int is_budget_kind(int kind) {
    return kind == SD_ERROR_INSTRUCTIONS || kind == SD_ERROR_MEMORY || kind == SD_ERROR_TIME;
}

int sd_raise(lua_State *L, int kind, const char *message) {
    sd_host *host = sd_host_of(L);
    if (host) host->raised = kind;
    if (is_budget_kind(kind)) {
        lua_pushlightuserdata(L, (void *)&budget_sentinel);
    } else {
        lua_pushstring(L, message ? message : "error");
    }
    return lua_error(L);
}

/* Whether a budget ran out in this call (an allocation refused counts, even if Lua recovered). */
int sd_budget_spent(const sd_host *host) {
    return is_budget_kind(host->raised) || host->memory_refused;
}

/* The work a call has done: VM instructions, native work charged, and bytes allocated. */
static long long work_done(const sd_host *host) {
    return host->ticks * HOOK_STEP + host->native + (long long)(host->allocated / ALLOC_BYTES_PER_INSTRUCTION);
}

/* Which budget, if any, the call has passed; records it. */
static int over_budget(sd_host *host) {
    if (host->spent == SD_SPENT_NONE && work_done(host) > host->work_limit) {
        host->spent = host->work_limit_is_request ? SD_SPENT_REQUEST_WORK : SD_SPENT_CALL_WORK;
    }
    return host->spent;
}

/* After the thread's timer ticked during the call: whether the call's or the request's time is
   spent (recorded). Reads the clock only for a request's deadline. */
static int over_time(sd_host *host) {
    int seen = cpu_timer.ticks;
    if (seen == host->timer_seen) return host->spent;
    host->call_ticks += (seen - host->timer_seen) & 0x7fffffff;
    host->timer_seen = seen;
    if (host->spent != SD_SPENT_NONE) return host->spent;
    if (host->time_budget_ns > 0 && host->call_ticks > host->time_budget_ns / TIMER_PERIOD_NS) {
        host->spent = SD_SPENT_CALL_TIME;
    } else if (host->request_deadline_ns > 0 && sd_thread_cpu_ns() >= host->request_deadline_ns) {
        host->spent = SD_SPENT_REQUEST_TIME;
    }
    return host->spent;
}

int sd_spent_kind(int spent) {
    return spent == SD_SPENT_CALL_TIME || spent == SD_SPENT_REQUEST_TIME ? SD_ERROR_TIME : SD_ERROR_INSTRUCTIONS;
}

/* The capped allocator: refuses any growth past `limit` (Lua then raises LUA_ERRMEM), and in a
   call, growth once the call's work is spent: a C loop that allocates ends with its budget. */
static void *sd_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    sd_host *host = (sd_host *)ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        host->used -= old;
        return NULL;
    }
    if (nsize > old) {
        if (host->used + (nsize - old) > host->limit) {
            host->memory_refused = 1;
            return NULL;
        }
        if (host->in_call) {
            host->allocated += nsize - old;
            if (over_budget(host) != SD_SPENT_NONE) {
                host->raised = sd_spent_kind(host->spent);
                return NULL;
            }
        }
    }
    void *block = realloc(ptr, nsize);
    if (block == NULL) return NULL;
    host->used = host->used - old + nsize;
    return block;
}

/* Raises the budget error, and from then on at every instruction, so that a script's own pcall
   cannot swallow it and carry on. */
void sd_raise_spent(lua_State *L, sd_host *host) {
    int kind = sd_spent_kind(host->spent);
    if (host->raised != kind) lua_sethook(L, sd_hook, LUA_MASKCOUNT | host->hook_extra, 1);
    sd_raise(L, kind, NULL);
}

/* Takes a timer tick the call has not seen yet, and raises once any budget is spent; called by
   the hook and by native work charged. */
static void check_budgets(lua_State *L, sd_host *host) {
    if (host->in_call && cpu_timer.ticks != host->timer_seen && over_time(host) == SD_SPENT_NONE && !is_budget_kind(host->raised)) {
        /* A tick within the budget: the one-instruction hook its handler set goes back to the usual pace. */
        lua_sethook(L, sd_hook, LUA_MASKCOUNT | host->hook_extra, HOOK_STEP);
    }
    if (is_budget_kind(host->raised) || over_budget(host) != SD_SPENT_NONE) {
        if (host->spent == SD_SPENT_NONE) host->spent = SD_SPENT_CALL_WORK;
        sd_raise_spent(L, host);
    }
}

static void sd_hook(lua_State *L, lua_Debug *ar) {
    sd_host *host = sd_host_of(L);
    if (ar->event != LUA_HOOKCOUNT) {
        /* Only while authoring: a line to mark covered, a return to note. */
        sd_authoring_hook(L, host, ar);
        return;
    }
    host->ticks++;
    check_budgets(L, host);
}

void sd_charge(lua_State *L, long long instructions) {
    sd_host *host = sd_host_of(L);
    if (host == NULL) return; /* a state the host did not make runs unbounded */
    host->native += instructions;
    check_budgets(L, host);
}


const char *sd_spent_message(int spent, char *buffer, size_t size) {
    switch (spent) {
    case SD_SPENT_CALL_TIME: return "exceeded its time budget (CPU time for one call)";
    case SD_SPENT_REQUEST_WORK:
        snprintf(buffer, size, "exceeded the request's policy budget (%lld instructions for every policy call of one request)", request.work_budget);
        return buffer;
    case SD_SPENT_REQUEST_TIME:
        snprintf(buffer, size, "exceeded the request's time budget (%lld ms of CPU time for every policy call of one request)",
                 request.cpu_budget_ns / 1000000LL);
        return buffer;
    default: return "exceeded its instruction budget";
    }
}


void sd_budget_begin(sd_host *host, int charged) {
    lua_State *L = host->L;
    host->serial++;
    host->ticks = 0;
    host->native = 0;
    host->allocated = 0;
    host->raised = SD_OK;
    host->spent = SD_SPENT_NONE;
    host->memory_refused = 0;
    host->work_limit = host->instruction_budget;
    host->work_limit_is_request = 0;
    host->request_deadline_ns = 0;
    if (charged && request.active) {
        if (request.work_left < host->work_limit) {
            host->work_limit = request.work_left;
            host->work_limit_is_request = 1;
        }
        host->request_deadline_ns = request.cpu_deadline_ns;
    }
    host->call_ticks = 0;
    host->day = LLONG_MIN;
    host->where[0] = 0;
    host->hook_extra = (host->covering ? LUA_MASKLINE : 0) | (host->diagnose ? LUA_MASKRET : 0);
    size_t headroom = host->memory_budget;
    size_t limit = headroom > SIZE_MAX - host->used ? SIZE_MAX : host->used + headroom;
    host->limit = limit > host->state_limit ? (host->state_limit > host->used ? host->state_limit : host->used) : limit;
    host->in_call = charged;
    host->watched = charged && (host->time_budget_ns > 0 || host->request_deadline_ns > 0);
    if (host->watched) {
        start_cpu_timer();
        host->timer_seen = cpu_timer.ticks;
        cpu_timer.extra = host->hook_extra;
        cpu_timer.state = L;
    }
    lua_sethook(L, sd_hook, LUA_MASKCOUNT | host->hook_extra, HOOK_STEP);
}

void sd_budget_end(sd_host *host, int charged) {
    if (host->watched) cpu_timer.state = NULL;
    host->watched = 0;
    lua_sethook(host->L, NULL, 0, 0);
    host->in_call = 0;
    if (charged && request.active) {
        request.work_left -= work_done(host);
        if (host->spent == SD_SPENT_REQUEST_WORK || host->spent == SD_SPENT_REQUEST_TIME) request.spent = host->spent;
        else if (request.work_left <= 0) request.spent = SD_SPENT_REQUEST_WORK;
    }
}

int sd_request_refuses(int charged, int *kind, char *buffer, size_t size, const char **message) {
    if (!charged || !request.active || request.spent == SD_SPENT_NONE) return 0;
    *kind = sd_spent_kind(request.spent);
    *message = sd_spent_message(request.spent, buffer, size);
    return 1;
}
