import StackDay

/// How far a quota habit is in its open period, as a person says it: "2 of 3 this week",
/// "1 of 4 this month", "2 of 3 in the last 7 days"; "이번 주 3회 중 2회".
public struct PeriodText: Sendable {
    public let quota: PeriodQuota
    public let period: HabitPeriod

    /// Nil for a day-by-day habit, or when today is outside the tracking period.
    public init?(_ summary: HabitSummary) {
        guard let quota = summary.quota, let period = summary.period else { return nil }
        self.quota = quota
        self.period = period
    }

    public func text(_ language: ReportLanguage) -> String {
        switch (language, quota.period) {
        case (.english, .week): "\(period.count) of \(period.times) this week"
        case (.english, .month): "\(period.count) of \(period.times) this month"
        case (.english, .rolling(let days)): "\(period.count) of \(period.times) in the last \(days) days"
        case (.korean, .week): "이번 주 \(period.times)회 중 \(period.count)회"
        case (.korean, .month): "이번 달 \(period.times)회 중 \(period.count)회"
        case (.korean, .rolling(let days)): "최근 \(days)일 \(period.times)회 중 \(period.count)회"
        }
    }
}
