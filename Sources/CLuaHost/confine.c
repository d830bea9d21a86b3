#define _GNU_SOURCE
#include "internal.h"

#include <fcntl.h>
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#if defined(__linux__)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#endif

/* A policy runner's confinement (stackday_lua_host.h): what it holds and what it may ask the
   kernel for, set once before its first message. */

/* Closes every descriptor above stderr, so nothing the parent had open (its store, its
   sockets) is reachable from the runner. */
static void close_inherited(void) {
    /* Each pass closes what one listing found, up to a bufferful; passes go on until one finds
       nothing left to close. */
    for (;;) {
        DIR *dir = opendir("/proc/self/fd");
        if (dir == NULL) {
            long last = sysconf(_SC_OPEN_MAX);
            for (long fd = 3; fd < (last > 0 ? last : 1024); fd++) close((int)fd);
            return;
        }
        int own = dirfd(dir);
        int found[1024];
        int count = 0;
        struct dirent *entry;
        while ((entry = readdir(dir)) != NULL && count < 1024) {
            int fd = atoi(entry->d_name);
            if (fd > 2 && fd != own) found[count++] = fd;
        }
        closedir(dir);
        if (count == 0) return;
        for (int i = 0; i < count; i++) close(found[i]);
    }
}

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#if defined(__x86_64__)
#define SD_AUDIT_ARCH AUDIT_ARCH_X86_64
#else
#define SD_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

/* The system-call filter is written as a program of classic BPF (seccomp(2), "Filter
   programs"), made up in a buffer: each call the runner may make is one short block that ends
   in a verdict of its own, so blocks never jump into one another and the order of the list is
   free. Anything not listed is refused with EPERM. */
enum { SD_FILTER_MAX = 256 };

typedef struct {
    struct sock_filter code[SD_FILTER_MAX];
    unsigned short length;
    int overflow;
} sd_filter;

static void put(sd_filter *filter, struct sock_filter instruction) {
    if (filter->length == SD_FILTER_MAX) { filter->overflow = 1; return; }
    filter->code[filter->length++] = instruction;
}

static struct sock_filter verdict(unsigned int value) { return (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, value); }
static const unsigned int sd_allow = SECCOMP_RET_ALLOW;
static const unsigned int sd_refuse = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);

/* The low 32 bits of argument `index` (both architectures are little-endian). */
static struct sock_filter load_argument(int index) {
    return (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (unsigned int)(offsetof(struct seccomp_data, args) + 8 * index));
}

static struct sock_filter load_number(void) {
    return (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
}

/* `number` is allowed whatever its arguments. */
static void allow(sd_filter *filter, long number) {
    put(filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)number, 0, 1));
    put(filter, verdict(sd_allow));
}

/* `number` is allowed when its argument `index` is `value` or `other`: a call that names a
   process, allowed only for the runner itself. Leaves the number loaded for the next block. */
static void allow_when_argument(sd_filter *filter, long number, int index, unsigned int value, unsigned int other) {
    put(filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)number, 0, 5));
    put(filter, load_argument(index));
    put(filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, value, 2, 0));
    put(filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, other, 1, 0));
    put(filter, verdict(sd_refuse));
    put(filter, verdict(sd_allow));
}

/* `number` is allowed when argument `index` has none of `bits`: memory mapped or changed, never
   made executable. Leaves the number loaded for the next block. */
static void allow_without_bits(sd_filter *filter, long number, int index, unsigned int bits) {
    put(filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)number, 0, 4));
    put(filter, load_argument(index));
    put(filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, bits, 0, 1));
    put(filter, verdict(sd_refuse));
    put(filter, verdict(sd_allow));
}

/* What a runner does once confined: read calls from its pipe and write answers, compute in
   memory it maps, tick its CPU timer and take the timer's signal, read clocks, and exit. No
   files, sockets, programs, threads or processes; signals and limits only for itself. */
static int allow_only_computing(void) {
    sd_filter filter = {.length = 0, .overflow = 0};
    unsigned int self = (unsigned int)getpid();
    put(&filter, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
    put(&filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SD_AUDIT_ARCH, 1, 0));
    put(&filter, verdict(SECCOMP_RET_KILL_PROCESS));
    put(&filter, load_number());
#if defined(__x86_64__)
    /* The x32 calls share the architecture tag and differ by a bit of the number. */
    put(&filter, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
    put(&filter, verdict(sd_refuse));
#endif
    /* The pipe, and memory. */
    allow(&filter, __NR_read);
    allow(&filter, __NR_write);
    allow(&filter, __NR_readv);
    allow(&filter, __NR_writev);
    allow(&filter, __NR_close);
    allow(&filter, __NR_lseek);
    allow(&filter, __NR_fstat);
    allow(&filter, __NR_brk);
    allow(&filter, __NR_munmap);
    allow(&filter, __NR_mremap);
    allow(&filter, __NR_madvise);
    allow_without_bits(&filter, __NR_mmap, 2, PROT_EXEC);
    allow_without_bits(&filter, __NR_mprotect, 2, PROT_EXEC);
    /* Time, the CPU timer and its signal. */
    allow(&filter, __NR_clock_gettime);
    allow(&filter, __NR_clock_getres);
    allow(&filter, __NR_clock_nanosleep);
    allow(&filter, __NR_nanosleep);
    allow(&filter, __NR_gettimeofday);
    allow(&filter, __NR_getrusage);
    allow(&filter, __NR_timer_create);
    allow(&filter, __NR_timer_settime);
    allow(&filter, __NR_timer_gettime);
    allow(&filter, __NR_timer_getoverrun);
    allow(&filter, __NR_timer_delete);
    allow(&filter, __NR_rt_sigaction);
    allow(&filter, __NR_rt_sigprocmask);
    allow(&filter, __NR_rt_sigreturn);
    allow(&filter, __NR_sigaltstack);
    allow(&filter, __NR_restart_syscall);
    /* Itself: who it is, waiting on its own memory, randomness, its signals and limits, exit. */
    allow(&filter, __NR_getpid);
    allow(&filter, __NR_gettid);
    allow(&filter, __NR_futex);
    allow(&filter, __NR_sched_yield);
    allow(&filter, __NR_getrandom);
    allow_when_argument(&filter, __NR_kill, 0, self, self);
    allow_when_argument(&filter, __NR_tgkill, 0, self, self);
    allow_when_argument(&filter, __NR_tkill, 0, self, self);
    allow_when_argument(&filter, __NR_prlimit64, 0, 0, self);
    allow(&filter, __NR_exit);
    allow(&filter, __NR_exit_group);
    put(&filter, verdict(sd_refuse));
    if (filter.overflow) return -1;
    struct sock_fprog program = {filter.length, filter.code};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0 ? 0 : -1;
}
#else
static int allow_only_computing(void) { return -1; }
#endif

int sd_runner_confine(long long address_space_bytes, long long cpu_seconds) {
    int result = 0;
#if defined(__linux__)
    /* A runner outlives no server: it is killed when the process that started it ends. */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
#endif
    close_inherited();
    struct rlimit limit;
    if (address_space_bytes > 0) {
        limit.rlim_cur = limit.rlim_max = (rlim_t)address_space_bytes;
        if (setrlimit(RLIMIT_AS, &limit) != 0) result |= 1;
    }
    if (cpu_seconds > 0) {
        /* The soft limit sends SIGXCPU (the runner ends, and is replaced); the hard one a second later SIGKILL. */
        limit.rlim_cur = (rlim_t)cpu_seconds;
        limit.rlim_max = (rlim_t)cpu_seconds + 1;
        if (setrlimit(RLIMIT_CPU, &limit) != 0) result |= 2;
    }
    limit.rlim_cur = limit.rlim_max = 0;
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) result |= 4;
    if (setrlimit(RLIMIT_CORE, &limit) != 0) result |= 4;
    if (allow_only_computing() != 0) result |= 8;
    return result;
}

int sd_pipe_cloexec(int fds[2]) {
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}
