import Foundation
import StackDay

/// The formats StackDay exchanges archives in: its own CSV and JSON exports, and Loop Habit
/// Tracker's CSV export folder (read only).
public enum ArchiveFormat: String, CaseIterable, Sendable {
    case csv, json, loop

    /// The format a path suggests: a folder is Loop's export, `.csv` is CSV, anything else JSON.
    public static func guess(path: String, isFolder: Bool) -> ArchiveFormat {
        isFolder ? .loop : path.lowercased().hasSuffix(".csv") ? .csv : .json
    }

    /// The archive as this format's text; nil for `loop`, which is read only.
    public func encode(_ archive: HabitArchive) -> String? {
        switch self {
        case .csv: ArchiveCSV.encode(archive)
        case .json: ArchiveJSON.encode(archive)
        case .loop: nil
        }
    }

    /// An archive in a file (csv, json), read as a stream, or a folder (loop, read whole: its
    /// files are small). `now` stamps the habits a Loop import creates. Reading it throws
    /// `ImportFormatError` naming the file, line and column.
    public func source(_ url: URL, now: Date) throws -> any ArchiveSource {
        switch self {
        case .loop: return try LoopImporter(folder: url, now: now).read()
        case .csv, .json: return ArchiveFile(url, format: self)
        }
    }

    /// The same, whole in memory.
    public func read(_ url: URL, now: Date) throws -> HabitArchive {
        try HabitArchive(collecting: try source(url, now: now))
    }
}
