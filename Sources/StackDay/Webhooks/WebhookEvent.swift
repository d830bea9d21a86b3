/// What a webhook can be told of. The first three are a user's own writes, from any surface (the
/// command line, the API, the web, an import does not count); the others the server finds: a due
/// day that ended unmet and the streak it ended, found after the user's day ends, and a streak
/// reaching a milestone when a record makes it; and a habit still open at its reminder time.
public enum WebhookEvent: String, Sendable, CaseIterable, Codable {
    case record
    case undo
    case skip
    case dayMissed = "day.missed"
    case streakBroken = "streak.broken"
    case streakMilestone = "streak.milestone"
    /// A habit still open at one of its reminder times (and a reminder asked again for later).
    case reminder

    /// The current streaks a `streak.milestone` is sent for.
    public static let milestones: Set<Int> = [7, 30, 100, 365, 1000]

    /// The events' names, for an error that lists them.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
