import Foundation

/// What a habit's policies answered, kept so that later reads ask them again only from the
/// first day a write touched: each day's due flag, progress, total and skip from `firstDay`
/// through `validThrough`, the rules that answered, and the streak as of one day.
///
/// A cache is only ever a shortcut: every figure computed with it equals the figure computed
/// without it, and a row that fails a check is ignored and rebuilt.
public struct CachedEvaluation: Hashable, Sendable {
    /// Bumped whenever the layout or the meaning of a cached answer changes (2: checksums bound
    /// to the owner and habit; 3: a quota habit's score steps every day, as Loop's does).
    public static let format = 3

    public let habitID: UUID
    /// The policy resolver's `evaluationKey`: answers from another engine build are not reused.
    public let evaluator: String
    /// The habit's start day when the answers were computed (policies see it).
    public let firstDay: LocalDay
    /// The spans of rules that answered, in day order, covering `firstDay` … the last cached day.
    public let spans: [CachedSpan]
    public let due: [Bool]
    public let skipped: [Bool]
    public let progress: [Double]
    /// Each day's total in thousandths of the unit.
    public let thousandths: [Int64]
    /// The last day whose answers are still valid: writes move it back to the day before the
    /// earliest day they touch.
    public let validThrough: LocalDay?
    /// The figures as of one day (cleared by any write to the habit).
    public let summary: CachedSummary?
    /// The store's change counter for the habit when the answers were read: a row is stored
    /// only if no write came in between.
    public let generation: Int64

    public init(
        habitID: UUID, evaluator: String, firstDay: LocalDay, spans: [CachedSpan], due: [Bool], skipped: [Bool],
        progress: [Double], thousandths: [Int64], validThrough: LocalDay?, summary: CachedSummary?, generation: Int64
    ) {
        self.habitID = habitID
        self.evaluator = evaluator
        self.firstDay = firstDay
        self.spans = spans
        self.due = due
        self.skipped = skipped
        self.progress = progress
        self.thousandths = thousandths
        self.validThrough = validThrough
        self.summary = summary
        self.generation = generation
    }

    /// The number of days with answers (`firstDay` onward).
    public var count: Int { due.count }

    /// Whether the arrays agree with each other and with the spans: what a decoded row must pass.
    public var isConsistent: Bool {
        let count = due.count
        guard skipped.count == count, progress.count == count, thousandths.count == count else { return false }
        guard count > 0 else { return spans.isEmpty }
        var expected = firstDay
        for span in spans {
            guard span.days.first == expected, !span.days.isEmpty else { return false }
            expected = span.days.last.adding(days: 1)
        }
        guard expected == firstDay.adding(days: count) else { return false }
        if let validThrough, validThrough >= firstDay.adding(days: count) { return false }
        return progress.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 } && thousandths.allSatisfy { $0 >= 0 }
    }
}
