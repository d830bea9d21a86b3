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

#define SD_DENY(name) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_##name, 0, 1), \
                      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))

/* Refuses (EPERM) the calls that reach files, the network, other programs or other processes;
   everything a Lua state and the Swift runtime need to compute stays allowed. */
static int deny_reaching_out(void) {
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SD_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#ifdef __NR_open
        SD_DENY(open),
#endif
#ifdef __NR_creat
        SD_DENY(creat),
#endif
#ifdef __NR_fork
        SD_DENY(fork),
#endif
#ifdef __NR_vfork
        SD_DENY(vfork),
#endif
        SD_DENY(openat),
        SD_DENY(socket),
        SD_DENY(connect),
        SD_DENY(bind),
        SD_DENY(listen),
        SD_DENY(accept4),
        SD_DENY(execve),
        SD_DENY(execveat),
        SD_DENY(ptrace),
        SD_DENY(kill),
        SD_DENY(unlinkat),
        SD_DENY(mkdirat),
        SD_DENY(renameat2),
        SD_DENY(truncate),
        SD_DENY(ftruncate),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog program = {(unsigned short)(sizeof filter / sizeof filter[0]), filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0 ? 0 : -1;
}
#else
static int deny_reaching_out(void) { return -1; }
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
    if (deny_reaching_out() != 0) result |= 8;
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
