/// The columns of a habit's own row that its policies are given besides its revisions: its first
/// day, the day it was archived and its unit (`HabitTimelineBuilder`). Only a change to one of
/// them can change the habit's figures, so in either store only such an update clears its cached
/// figures; any update still moves its change counter on.
public enum SQLEvaluatedColumns {
    /// The columns, as both stores name them.
    public static let habit = ["started_on", "archived_on", "unit"]
}
