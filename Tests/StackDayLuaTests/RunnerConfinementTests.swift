import Foundation
import Testing
import StackDayTestSupport

/// The runner's system-call allow list (`Sources/CLuaHost/confine.c`), tried from outside Swift:
/// a probe built against `confine.c` confines a child as a runner is confined and asks the kernel
/// for what a runner must never do, and for what it needs.
@Suite("policy runners: confined to an allow list of system calls")
struct RunnerConfinementTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The calls the probe must find refused: files (new and legacy forms), the network, other
    /// programs, new processes, the kernel's side doors, the parent, executable memory.
    static let refused = [
        "openat", "openat2", "unlinkat", "mkdirat", "renameat2", "linkat", "symlinkat", "fchmodat", "truncate",
        "ftruncate", "newfstatat", "getcwd", "memfd_create", "mount", "chroot", "ioctl",
        "socket", "socketpair", "connect", "bind", "listen", "accept4", "sendmsg",
        "execve", "execveat", "clone", "clone3", "io_uring_setup", "bpf", "perf_event_open", "userfaultfd",
        "unshare", "keyctl", "personality", "prctl",
        "ptrace", "process_vm_readv", "process_vm_writev", "kill", "tgkill", "tkill", "pidfd_open", "prlimit64",
        "setpriority", "sched_setaffinity", "mmap-exec", "mprotect-exec",
    ] + legacy
    #if arch(x86_64)
    static let legacy = ["open", "creat", "unlink", "mkdir", "rmdir", "rename", "link", "symlink", "chmod", "stat", "fork", "vfork", "x32-getpid"]
    #else
    static let legacy: [String] = []
    #endif
    /// What a runner needs, still working under the filter.
    static let needed = ["mmap", "clock_gettime", "getpid", "kill-self", "prlimit64-self", "timer_create", "malloc"]

    @Test("every call outside the list is refused, the parent's limits and signals are untouched, and what a runner needs still works")
    func allowList() throws {
        let folder = try TemporaryFolder()
        let source = Self.package.appendingPathComponent("Tests/StackDayLuaTests/Fixtures/confinement-probe.c").path
        let probe = folder.path("probe")
        let lua = try Subprocess(executable: URL(fileURLWithPath: "/usr/bin/pkg-config")).run(["--cflags", "lua5.4"])
        #expect(lua.status == 0, "\(lua.stderr)")
        let flags = lua.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
        let build = try Subprocess(executable: URL(fileURLWithPath: "/usr/bin/env")).run(
            ["cc", "-std=gnu11", "-Wall", "-I", Self.package.appendingPathComponent("Sources/CLuaHost/include").path] + flags
                + [source, Self.package.appendingPathComponent("Sources/CLuaHost/confine.c").path, "-o", probe])
        try #require(build.status == 0, "the probe did not build: \(build.stderr)")
        try Data().write(to: URL(fileURLWithPath: folder.path("present")))
        let run = try Subprocess(executable: URL(fileURLWithPath: probe)).run([], environment: ["PROBE_DIR": folder.url.path], timeout: 60)
        let lines = Set(run.stdout.split(separator: "\n").map(String.init))
        for name in Self.refused {
            #expect(lines.contains("refused \(name)"), "\(name) was not refused: \(run.stdout)")
        }
        for name in Self.needed {
            #expect(lines.contains("works \(name)"), "\(name) does not work under the filter")
        }
        #expect(lines.contains("parent limits unchanged"))
        #expect(lines.contains("parent signals 0"))
        #expect(lines.contains("child exited 0"))
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["present", "probe"])
    }
}
