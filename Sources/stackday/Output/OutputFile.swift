import Foundation

/// Writes a command's output to the path given with `--out`.
///
/// A regular file (or a new one) is replaced atomically: a temporary file beside it, renamed over
/// it. A symbolic link is followed, so the file it points to is replaced and the link stays. A
/// FIFO, a device or anything else that is not a regular file is opened and written as a stream.
enum OutputFile {
    /// Writes what `body` hands to its writer, a piece at a time (an export of millions of
    /// records is never one string): into a temporary file beside a regular target, renamed over
    /// it only once `body` returns, so that a failure half-way leaves the old file as it was.
    static func writing(to path: String, _ body: (_ write: (String) throws -> Void) throws -> Void) throws {
        let target = resolved(path)
        var info = stat()
        if stat(target, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            let descriptor = open(target, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            try body { text in
                if let code = TerminalIO.writeAll(descriptor, text) { throw CommandFailure("cannot write \(path): \(String(cString: strerror(code)))") }
            }
            return
        }
        let folder = URL(fileURLWithPath: target).deletingLastPathComponent().path
        var template = Array((folder + "/.stackday-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var done = false
        defer {
            close(descriptor)
            if !done { unlink(temporary) }
        }
        var buffer = ""
        func drain() throws {
            if let code = TerminalIO.writeAll(descriptor, buffer) { throw CommandFailure("cannot write \(path): \(String(cString: strerror(code)))") }
            buffer = ""
        }
        try body { text in
            buffer += text
            if buffer.utf8.count >= 1 << 16 { try drain() }
        }
        try drain()
        // A new file gets the mode a plain write would give it; a replaced one keeps its own.
        let mode = stat(target, &info) == 0 ? info.st_mode & 0o7777 : 0o666 & ~currentUmask()
        fchmod(descriptor, mode)
        guard fsync(descriptor) == 0, rename(temporary, target) == 0 else {
            throw CommandFailure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        done = true
    }

    private static func currentUmask() -> mode_t {
        let mask = umask(0)
        umask(mask)
        return mask
    }

    static func write(_ text: String, to path: String) throws {
        try writing(to: path) { try $0(text) }
    }

    /// The path with symbolic links followed (as far as they lead); the path itself when it is not a link.
    private static func resolved(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return path }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }
}
