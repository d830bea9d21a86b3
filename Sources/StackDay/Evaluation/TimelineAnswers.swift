/// Everything a timeline was built from, day by day over its period: what the policies answered
/// and what the store held. What a cached evaluation keeps, and what a build can start from.
public struct TimelineAnswers: Sendable {
    public var due: [Bool]
    public var progress: [Double]
    public var thousandths: [Int64]
    public var skipped: [Bool]
    /// Each revision span of the period: its days, its rules key (nil while unpinned) and quota.
    public var spans: [CachedSpan?]

    public init(due: [Bool] = [], progress: [Double] = [], thousandths: [Int64] = [], skipped: [Bool] = [], spans: [CachedSpan?] = []) {
        self.due = due
        self.progress = progress
        self.thousandths = thousandths
        self.skipped = skipped
        self.spans = spans
    }

    /// The number of days answered.
    public var count: Int { due.count }
}
