import StackDay

/// The habit columns the stores' triggers stamp one by one (`sync_fields`), as each migration
/// named them: a migration that adds one re-creates the trigger with the whole list, and earlier
/// migrations keep the list they had, so a grown list never changes an applied migration.
public enum SQLSyncStampedColumns {
    /// Every column of a `SyncHabitField`, in the fields' order.
    public static let all = SyncHabitField.allCases.map { SQLSyncTable.habitColumns[$0]! }
    /// What SQLite's migrations 23 and 26 and PostgreSQL's 18 name, for ever: once a habit had a
    /// place, a colour and a step.
    public static let display = first + ["position", "color_tag", "step_thousandths"]
    /// What SQLite's migrations 14 and 15 and PostgreSQL's 9 name, for ever: when stamps per field began.
    public static let first = ["name", "started_on", "archived_on", "unit", "updated_at"]
}
