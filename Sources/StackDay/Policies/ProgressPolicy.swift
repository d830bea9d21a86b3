/// Decides how far a day's total is toward done.
public protocol ProgressPolicy {
    /// The progress of each day, 0…1 where 1 means done, for the totals of `days` (same order).
    /// Totals and `goal` are in the habit's unit; a day without completions has total 0.
    func progress(totals: [Double], days: LocalDayRange, goal: Double) throws -> [Double]
}
