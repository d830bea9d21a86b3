/// The built-in policies' names when migration 25 (SQLite) and 20 (PostgreSQL) ran: a stored
/// script under any other name was installed or came from a policy folder, and counts as
/// installed. Fixed: an applied migration never changes.
public enum MigrationBuiltIns {
    public static let names = [
        "at-most", "daily", "every-n-days", "freeze", "goal", "grace", "monthly-day", "monthly-last-day", "monthly-nth-weekday",
        "rrule", "strict", "times-in-days", "times-per-month", "times-per-week", "weekdays", "weekly",
    ]

    /// The names as an SQL list of string literals.
    public static var sqlList: String { names.map { "'\($0)'" }.joined(separator: ", ") }
}
