import Foundation

/// The habits one write transaction touched, each with the earliest day touched, so that a store
/// invalidates each habit's cached evaluation once before it commits (one update per habit,
/// however many rows an import writes).
public struct TouchedHabits: Sendable {
    /// Per habit, the earliest day written; nil when the habit's own row changed (rules, start,
    /// archive) and no particular day.
    public private(set) var days: [UUID: LocalDay?] = [:]

    public init() {}

    /// Records a write on `day` (nil for a change to the habit's own row).
    public mutating func touch(_ habitID: UUID, day: LocalDay?) {
        switch (days[habitID], day) {
        case (nil, _): days[habitID] = .some(day)
        case (.some(.some(let earlier)), .some(let day)): days[habitID] = .some(min(earlier, day))
        case (.some(.none), .some(let day)): days[habitID] = .some(day)
        case (.some, .none): break
        }
    }

    public mutating func removeAll() { days.removeAll() }

    /// The last day whose cached answers a write on `day` leaves valid; nil when none stays valid.
    public static func lastValidDay(before day: LocalDay) -> LocalDay? {
        day <= LocalDay.earliest ? nil : day.adding(days: -1)
    }
}
