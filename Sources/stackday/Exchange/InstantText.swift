import Foundation

/// Instants in exports: ISO 8601 in UTC with milliseconds, e.g. `2026-10-11T13:00:00.000Z`.
enum InstantText {
    static func format(_ date: Date) -> String {
        // Round to whole milliseconds first so that export → import → export is stable.
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        return Date(timeIntervalSince1970: milliseconds / 1000).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    static func parse(_ text: String) -> Date? {
        guard let date = CLIEnvironment.parseInstant(text) else { return nil }
        return Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
