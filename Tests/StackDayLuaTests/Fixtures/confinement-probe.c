#define _GNU_SOURCE
/* Built by RunnerConfinementTests against Sources/CLuaHost/confine.c. A child confines itself as a
   policy runner does, then asks the kernel for what a runner must never do (reach files, the
   network, other programs, other processes, new executable memory) and for what it needs (its
   pipe, memory, clocks, its CPU timer). Each answer is one line on the parent's pipe:
   "refused NAME", "allowed NAME", or "failed NAME ERRNO" (neither). The parent then says whether
   its own limits and signals were touched, and exits 0 when every line is as it should be. */

#include "stackday_lua_host.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

static volatile sig_atomic_t signals_seen;
static void on_signal(int number) { (void)number; signals_seen++; }

static void say(const char *verdict, const char *name, int error) {
    char line[160];
    int length = error ? snprintf(line, sizeof line, "%s %s %s\n", verdict, name, strerrorname_np(error))
                       : snprintf(line, sizeof line, "%s %s\n", verdict, name);
    if (write(1, line, (size_t)length) < 0) _exit(3);
}

/* A call that must be refused: -1 with EPERM. One that went through is ended at once where it
   made something (a descriptor, a process). */
static void refused(const char *name, long result) {
    int error = errno;
    if (result == -1 && error == EPERM) { say("refused", name, 0); return; }
    if (result == 0 && (strstr(name, "fork") || strstr(name, "clone"))) _exit(0); /* the new process */
    say(result == -1 ? "failed" : "allowed", name, result == -1 ? error : 0);
}

/* A call a runner needs: anything but -1. */
static void needed(const char *name, long result) {
    say(result == -1 ? "failed" : "works", name, result == -1 ? errno : 0);
}

static void probe(pid_t parent, int own_group) {
    /* Every path is in the probe's own folder: a call let through changes nothing else. */
    const char *folder = getenv("PROBE_DIR");
    if (folder == NULL) _exit(2);
    char file[512], path[512], other[512];
    snprintf(file, sizeof file, "%s/present", folder);
    snprintf(path, sizeof path, "%s/made", folder);
    snprintf(other, sizeof other, "%s/other", folder);

    /* Files. */
#ifdef SYS_open
    refused("open", syscall(SYS_open, file, O_RDONLY));
    refused("creat", syscall(SYS_creat, path, 0600));
    refused("unlink", syscall(SYS_unlink, path));
    refused("mkdir", syscall(SYS_mkdir, path, 0700));
    refused("rmdir", syscall(SYS_rmdir, path));
    refused("rename", syscall(SYS_rename, path, other));
    refused("link", syscall(SYS_link, file, path));
    refused("symlink", syscall(SYS_symlink, file, path));
    refused("chmod", syscall(SYS_chmod, file, 0777));
    refused("stat", syscall(SYS_stat, file, path));
#endif
    refused("openat", syscall(SYS_openat, AT_FDCWD, file, O_RDONLY));
    struct { unsigned long long flags, mode, resolve; } how = {O_RDONLY, 0, 0};
    refused("openat2", syscall(437 /* openat2 */, AT_FDCWD, file, &how, sizeof how));
    refused("unlinkat", syscall(SYS_unlinkat, AT_FDCWD, path, 0));
    refused("mkdirat", syscall(SYS_mkdirat, AT_FDCWD, path, 0700));
    refused("renameat2", syscall(SYS_renameat2, AT_FDCWD, path, AT_FDCWD, other, 0));
    refused("linkat", syscall(SYS_linkat, AT_FDCWD, file, AT_FDCWD, path, 0));
    refused("symlinkat", syscall(SYS_symlinkat, file, AT_FDCWD, path));
    refused("fchmodat", syscall(SYS_fchmodat, AT_FDCWD, file, 0777));
    refused("truncate", syscall(SYS_truncate, path, 0));
    refused("ftruncate", syscall(SYS_ftruncate, 1, 0));
    char buffer[512];
    refused("newfstatat", syscall(SYS_newfstatat, AT_FDCWD, file, buffer, 0));
    refused("getcwd", syscall(SYS_getcwd, buffer, sizeof buffer));
    refused("memfd_create", syscall(SYS_memfd_create, "probe", 0));
    refused("mount", syscall(SYS_mount, "none", "/nonexistent/probe", "tmpfs", 0, NULL));
    refused("chroot", syscall(SYS_chroot, folder));
    refused("ioctl", syscall(SYS_ioctl, 0, 0x5412 /* TIOCSTI */, "x"));

    /* The network. */
    refused("socket", syscall(SYS_socket, AF_INET, SOCK_STREAM, 0));
    int pair[2];
    refused("socketpair", syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, pair));
    refused("connect", syscall(SYS_connect, 0, NULL, 0));
    refused("bind", syscall(SYS_bind, 0, NULL, 0));
    refused("listen", syscall(SYS_listen, 0, 1));
    refused("accept4", syscall(SYS_accept4, 0, NULL, NULL, 0));
    refused("sendmsg", syscall(SYS_sendmsg, 0, NULL, 0));

    /* Other programs, new processes and threads. */
    char *const no_arguments[] = {"true", NULL};
    refused("execve", syscall(SYS_execve, "/bin/true", no_arguments, NULL));
    refused("execveat", syscall(SYS_execveat, AT_FDCWD, "/bin/true", no_arguments, NULL, 0));
#ifdef SYS_fork
    refused("fork", syscall(SYS_fork));
    refused("vfork", syscall(SYS_vfork));
#endif
    refused("clone", syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0));
    struct { unsigned long long flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls; } arguments = {0};
    arguments.exit_signal = SIGCHLD;
    refused("clone3", syscall(435 /* clone3 */, &arguments, sizeof arguments));
    refused("io_uring_setup", syscall(425 /* io_uring_setup */, 1, buffer));
    refused("bpf", syscall(SYS_bpf, 0, buffer, 64));
    refused("perf_event_open", syscall(SYS_perf_event_open, buffer, 0, -1, -1, 0));
    refused("userfaultfd", syscall(SYS_userfaultfd, 0));
    refused("unshare", syscall(SYS_unshare, CLONE_NEWUSER));
    refused("keyctl", syscall(SYS_keyctl, 0, 0, 0, 0, 0));
    refused("personality", syscall(SYS_personality, 0xffffffff));
    refused("prctl", syscall(SYS_prctl, PR_SET_DUMPABLE, 1, 0, 0, 0));

    /* The server (here, the parent). */
    refused("ptrace", syscall(SYS_ptrace, 16 /* PTRACE_ATTACH */, parent, 0, 0));
    struct iovec local = {buffer, 8}, remote = {buffer, 8};
    refused("process_vm_readv", syscall(SYS_process_vm_readv, parent, &local, 1, &remote, 1, 0));
    refused("process_vm_writev", syscall(SYS_process_vm_writev, parent, &local, 1, &remote, 1, 0));
    refused("kill", syscall(SYS_kill, parent, SIGUSR1));
    if (own_group) refused("kill-group", syscall(SYS_kill, 0, SIGUSR1));
    refused("tgkill", syscall(SYS_tgkill, parent, parent, SIGUSR1));
    refused("tkill", syscall(SYS_tkill, parent, SIGUSR1));
    refused("pidfd_open", syscall(434 /* pidfd_open */, parent, 0));
    struct rlimit small = {64, 64};
    refused("prlimit64", syscall(SYS_prlimit64, parent, RLIMIT_NOFILE, &small, NULL));
    refused("setpriority", syscall(SYS_setpriority, PRIO_PROCESS, parent, 19));
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    refused("sched_setaffinity", syscall(SYS_sched_setaffinity, parent, sizeof one, &one));

    /* Executable memory, and the x32 calls beside the native ones. */
    refused("mmap-exec", (long)syscall(SYS_mmap, NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == -1 ? -1 : 0);
    void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    needed("mmap", page == MAP_FAILED ? -1 : 0);
    refused("mprotect-exec", syscall(SYS_mprotect, page, 4096, PROT_READ | PROT_EXEC));
#if defined(__x86_64__)
    refused("x32-getpid", syscall(0x40000000 | 39));
#endif

    /* What a runner needs. */
    struct timespec now;
    needed("clock_gettime", syscall(SYS_clock_gettime, CLOCK_THREAD_CPUTIME_ID, &now));
    needed("getpid", syscall(SYS_getpid));
    needed("kill-self", syscall(SYS_kill, getpid(), 0));
    struct rlimit mine;
    needed("prlimit64-self", syscall(SYS_prlimit64, 0, RLIMIT_AS, NULL, &mine));
    timer_t timer;
    struct sigevent event;
    memset(&event, 0, sizeof event);
    event.sigev_notify = SIGEV_NONE;
    needed("timer_create", timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &timer));
    char *grown = malloc(64 << 20);
    needed("malloc", grown == NULL ? -1 : 0);
    if (grown) memset(grown, 1, 64 << 20);
    free(grown);
    say("done", "", 0);
}

int main(void) {
    /* Its own process group, so a signal to "the group" reaches only the probe. */
    setpgid(0, 0);
    int own_group = getpgrp() == getpid();
    signal(SIGUSR1, on_signal);
    struct rlimit before, after;
    getrlimit(RLIMIT_NOFILE, &before);
    int channel[2];
    if (pipe(channel) != 0) return 2;
    pid_t parent = getpid();
    pid_t child = fork();
    if (child < 0) return 2;
    if (child == 0) {
        dup2(channel[1], 1);
        int failed = sd_runner_confine(1LL << 32, 60);
        if (failed) say("failed", "confine", 0);
        probe(parent, own_group);
        _exit(0);
    }
    close(channel[1]);
    FILE *answers = fdopen(channel[0], "r");
    char line[256];
    int wrong = 0, done = 0;
    while (fgets(line, sizeof line, answers)) {
        fputs(line, stdout);
        if (strcmp(line, "done \n") == 0) done = 1;
        else if (strncmp(line, "refused ", 8) != 0 && strncmp(line, "works ", 6) != 0) wrong++;
    }
    int status = 0;
    waitpid(child, &status, 0);
    getrlimit(RLIMIT_NOFILE, &after);
    int limits_kept = before.rlim_cur == after.rlim_cur && before.rlim_max == after.rlim_max;
    printf("parent limits %s\n", limits_kept ? "unchanged" : "changed");
    printf("parent signals %d\n", (int)signals_seen);
    printf("child %s %d\n", WIFEXITED(status) ? "exited" : "killed", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    return (wrong == 0 && done && limits_kept && signals_seen == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) ? 0 : 1;
}
