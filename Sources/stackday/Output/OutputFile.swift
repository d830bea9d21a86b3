import Foundation

/// Writes a command's output to the path given with `--out`.
///
/// A regular file (or a new one) is replaced atomically: a temporary file beside it, renamed over
/// it. A symbolic link is followed, so the file it points to is replaced and the link stays. A
/// FIFO, a device or anything else that is not a regular file is opened and written as a stream.
enum OutputFile {
    static func write(_ text: String, to path: String) throws {
        let target = resolved(path)
        var info = stat()
        if stat(target, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            try stream(text, to: target, shown: path)
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: target), options: .atomic)
        } catch {
            throw CommandFailure("cannot write \(path): \(reason(error))")
        }
    }

    /// The path with symbolic links followed (as far as they lead); the path itself when it is not a link.
    private static func resolved(_ path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return path }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    private static func stream(_ text: String, to path: String, shown: String) throws {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CommandFailure("cannot write \(shown): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        if let code = TerminalIO.writeAll(descriptor, text) {
            throw CommandFailure("cannot write \(shown): \(String(cString: strerror(code)))")
        }
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return error.localizedDescription
    }
}
