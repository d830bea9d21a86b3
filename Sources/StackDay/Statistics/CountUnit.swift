/// What a habit's streak and rate count: due days, or the periods of its quota.
public enum CountUnit: String, Hashable, Sendable, CaseIterable {
    case days, weeks, months
    /// The rolling windows of a "N times in D days" quota, one judged each day.
    case windows

    /// The unit of a habit under `quota` (days when it has none).
    public init(_ quota: PeriodQuota?) {
        switch quota?.period {
        case nil: self = .days
        case .week?: self = .weeks
        case .month?: self = .months
        case .rolling?: self = .windows
        }
    }
}
