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

    /// Reads an archive from a file (csv, json) or a folder (loop). `now` stamps the habits a Loop
    /// import creates. Throws `ImportFormatError` naming the file, line and column.
    public func read(_ url: URL, now: Date) throws -> HabitArchive {
        switch self {
        case .loop: return try LoopImporter(folder: url, now: now).read()
        case .csv: return try ArchiveCSV.decode(try LoopImporter.readText(url), file: url.path)
        case .json: return try ArchiveJSON.decode(try LoopImporter.readText(url), file: url.path)
        }
    }
}
