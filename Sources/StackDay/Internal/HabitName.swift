import Foundation

/// How habit names compare: trimmed and case-insensitive.
enum HabitName {
    static func key(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}
