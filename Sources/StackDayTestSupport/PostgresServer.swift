import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL server of the test's own: `initdb` into a temporary folder, started with `pg_ctl`
/// listening on a Unix socket in that folder (and on 127.0.0.1 when asked), one database created,
/// and stopped and deleted when the value goes away, also when a test fails; a watcher process
/// stops it should the test process end without doing so (a crash).
///
/// PostgreSQL refuses to run as root: as root, the server's commands run as the `postgres` user
/// through `runuser`. Missing binaries are an error naming the package, never a silent skip.
///
/// `@unchecked Sendable`: every stored property is immutable after `init`.
public final class PostgresServer: @unchecked Sendable {
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    public let folder: TemporaryFolder
    public let port: Int
    public let database = "stackday_test"
    public let user = "stackday"
    private let binaries: URL
    private let runsAsPostgres: Bool
    private var data: String { folder.path("data") }
    public var socketDirectory: String { folder.url.path }

    /// A libpq URL for the test database over the Unix socket.
    public var url: String { url(database: database) }

    /// A libpq URL for another database of this server (create it with `psql("CREATE DATABASE …")`).
    public func url(database: String, user: String? = nil) -> String {
        "postgresql://\(user ?? self.user)@/\(database)?host=\(socketDirectory)&port=\(port)"
    }

    /// A libpq URL over TCP on 127.0.0.1 (only when started with `tcp: true`).
    public var tcpURL: String { "postgresql://\(user)@127.0.0.1:\(port)/\(database)" }

    /// The server binaries (`initdb`, `pg_ctl`, …) of the newest installed PostgreSQL.
    public static func binaries() throws -> URL {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() {
            let bin = root.appendingPathComponent("\(version)/bin")
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("pg_ctl").path) { return bin }
        }
        throw Unavailable(description: "PostgreSQL's server binaries (initdb, pg_ctl) are not installed: apt-get install postgresql libpq-dev")
    }

    public convenience init(tcp: Bool = false) throws {
        try self.init(tcp: tcp, replicaOf: nil)
    }

    /// A hot standby of `primary`: a base backup of it (`pg_basebackup -R`), started on a port of
    /// its own and replaying the primary's WAL as it streams in; it answers reads only.
    public convenience init(replicaOf primary: PostgresServer) throws {
        try self.init(tcp: false, replicaOf: primary)
    }

    private init(tcp: Bool, replicaOf primary: PostgresServer?) throws {
        binaries = try Self.binaries()
        folder = try TemporaryFolder()
        runsAsPostgres = geteuid() == 0
        port = Self.freePort()
        if runsAsPostgres {
            // The server runs as `postgres`: it needs the folder (its data and its socket).
            try run("/bin/chown", ["-R", "postgres:postgres", folder.url.path], asPostgres: false)
            try run("/bin/chmod", ["0755", folder.url.path], asPostgres: false)
        }
        if let primary {
            try run(binaries.appendingPathComponent("pg_basebackup").path,
                    ["-h", primary.socketDirectory, "-p", "\(primary.port)", "-U", user, "-D", data, "-R", "-X", "stream", "--checkpoint=fast", "--no-sync"])
            try start(tcp: tcp)
            return
        }
        try run(binaries.appendingPathComponent("initdb").path,
                ["-D", data, "-U", user, "-A", "trust", "-E", "UTF8", "--no-sync", "--locale=C.UTF-8"])
        try start(tcp: tcp)
        try run(binaries.appendingPathComponent("createdb").path, ["-h", socketDirectory, "-p", "\(port)", "-U", user, database])
    }

    deinit {
        _ = try? run(binaries.appendingPathComponent("pg_ctl").path, ["-D", data, "-m", "immediate", "-w", "stop"])
        Self.forget(data)
    }

    // A server shared by a whole suite lives in a global, which Swift never deinitializes, and a
    // test process that crashes runs neither `deinit` nor `atexit`. So each server has a watcher:
    // a process blocked reading a pipe that only this process writes to, which stops the server
    // and removes its folder once the pipe ends, that is when this process ends, however it ends.
    private struct Watcher {
        let pipe: Int32
        let pid: pid_t
    }

    private static let watchers = Mutex<[String: Watcher]>([:])

    private static func remember(_ data: String, stop command: [String]) {
        guard watchers.withLock({ $0[data] }) == nil else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        // Close-on-exec: no process this one starts later holds the pipe open after it is gone.
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        defer { close(ends[0]) }
        guard let pid = spawn(command, input: ends[0], output: "/dev/null", after: "read -r _") else {
            close(ends[1])
            return
        }
        watchers.withLock { $0[data] = Watcher(pipe: ends[1], pid: pid) }
    }

    /// Ends the watcher of a server this value stopped itself (its stop then finds nothing to do).
    private static func forget(_ data: String) {
        guard let watcher = watchers.withLock({ $0.removeValue(forKey: data) }) else { return }
        close(watcher.pipe)
        var status: Int32 = 0
        while waitpid(watcher.pid, &status, 0) == -1 && errno == EINTR {}
    }

    /// Stops the server (`fast`: committed work is on disk), e.g. to test a restart.
    public func stop() throws {
        try run(binaries.appendingPathComponent("pg_ctl").path, ["-D", data, "-m", "fast", "-w", "stop"])
    }

    /// Starts the server (again, after `stop`) on the same port and folder and waits until it
    /// accepts connections.
    ///
    /// The server outlives `pg_ctl`, so `pg_ctl` is spawned directly with only a log file and
    /// /dev/null open: a server that inherited any other descriptor of this process (a pipe another
    /// test is reading, Foundation's own process-watching socket) would keep it open for its life.
    public func start(tcp: Bool = false) throws {
        let pgctl = binaries.appendingPathComponent("pg_ctl").path
        let arguments = [
            "-D", data, "-l", folder.path("server.log"), "-w", "-t", "60", "start",
            "-o", "-k \(socketDirectory) -p \(port) -c listen_addresses='\(tcp ? "127.0.0.1" : "")' -F -c max_connections=40",
        ]
        let command = runsAsPostgres ? ["/sbin/runuser", "-u", "postgres", "--", pgctl] + arguments : [pgctl] + arguments
        // bash closes every descriptor above 2 before it becomes pg_ctl.
        let output = folder.path("pg_ctl.out")
        let status = Self.spawnAndWait(command, output: output)
        let stop = (runsAsPostgres ? ["/sbin/runuser", "-u", "postgres", "--"] : []) + [pgctl, "-D", data, "-m", "immediate", "-w", "stop"]
        // The watcher also removes the folder once the server is stopped: a server kept in a global
        // is never deinitialized, and its data would otherwise stay behind after every run.
        Self.remember(data, stop: ["/bin/bash", "-c", #""$@"; rm -rf -- "$0""#, folder.url.path] + stop)
        guard status == 0 else {
            let log = (try? String(contentsOfFile: folder.path("server.log"), encoding: .utf8)) ?? ""
            let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            throw Unavailable(description: "pg_ctl start failed (status \(status)): \(said) \(log.suffix(2000))")
        }
    }

    /// Runs `command` with stdin from /dev/null and stdout and stderr into `output`, every other
    /// descriptor closed (bash closes them before it becomes the command), and waits for it.
    @discardableResult
    static func spawnAndWait(_ command: [String], output: String) -> Int32 {
        guard let pid = spawn(command, input: nil, output: output) else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return status
    }

    /// Starts `command` with stdin from `input` (else /dev/null), stdout and stderr into `output`
    /// and every other descriptor closed; bash runs `after` (a shell command) first, then becomes
    /// the command. Its process id, or nil when it could not be started.
    private static func spawn(_ command: [String], input: Int32?, output: String, after: String? = nil) -> pid_t? {
        let closeAll = #"for fd in /proc/$$/fd/*; do n=${fd##*/}; if [ "$n" -gt 2 ] 2>/dev/null; then eval "exec $n>&-" 2>/dev/null; fi; done; "#
        let argv = ["/bin/bash", "-c", closeAll + (after.map { $0 + "; " } ?? "") + #"exec "$@""#, "bash"] + command
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input { posix_spawn_file_actions_adddup2(&actions, input, 0) } else { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid = pid_t()
        guard posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ) == 0 else { return nil }
        return pid
    }

    /// Runs `psql -c sql` on the test database (or another one of this server); returns its output.
    @discardableResult
    public func psql(_ sql: String, database: String? = nil) throws -> String {
        try run(binaries.appendingPathComponent("psql").path,
                ["-h", socketDirectory, "-p", "\(port)", "-U", user, "-d", database ?? self.database, "-v", "ON_ERROR_STOP=1", "-At", "-c", sql])
    }

    @discardableResult
    private func run(_ program: String, _ arguments: [String], asPostgres: Bool? = nil) throws -> String {
        let viaRunuser = asPostgres ?? runsAsPostgres
        let result = try Subprocess(executable: URL(fileURLWithPath: viaRunuser ? "/sbin/runuser" : program))
            .run(viaRunuser ? ["-u", "postgres", "--", program] + arguments : arguments, timeout: 120)
        guard result.status == 0 else {
            let log = (try? String(contentsOfFile: folder.path("server.log"), encoding: .utf8)) ?? ""
            throw Unavailable(description: "\(URL(fileURLWithPath: program).lastPathComponent) failed (\(result.status)): \(result.stderr)\(result.stdout) \(log.suffix(2000))")
        }
        return result.stdout
    }

    /// A TCP port nothing listens on now (the kernel's pick for an ephemeral bind).
    public static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : 54_000 + Int(getpid() % 1000)
    }
}
