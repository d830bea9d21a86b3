import Foundation

/// Files a command created, removed again when the command fails: a failed command leaves no
/// new database behind.
final class CreatedFiles {
    private var paths: [String] = []

    func add(_ path: String) {
        paths.append(path)
    }

    /// Removes each file and its SQLite companions (`-wal`, `-shm`, `-journal`).
    func removeAll() {
        for path in paths {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        paths.removeAll()
    }
}
