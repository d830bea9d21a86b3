/// What a monthly schedule on day 29, 30 or 31 does in months without that day: the
/// `monthly-day` policy skips them or takes their last day (`shortMonth`); a calendar rule
/// (`rrule`, `BYMONTHDAY=31`) skips them, as RFC 5545 §3.3.10 says. Nil for every other schedule.
public struct ShortMonthRule: Sendable, Equatable {
    /// The day of the month asked for (29, 30 or 31).
    public let day: Int
    /// Whether a month without it takes its last day (else it is not due that month).
    public let takesLastDay: Bool
    /// Whether the schedule is a pasted calendar rule, which has no `shortMonth` to change.
    public let isCalendarRule: Bool

    public init?(_ choice: PolicyChoice) {
        switch choice.name {
        case "monthly-day":
            guard case .number(let value)? = choice.parameters["day"], value >= 29, value <= 31, value.rounded() == value else { return nil }
            (day, takesLastDay, isCalendarRule) = (Int(value), choice.parameters["shortMonth"]?.stringValue == "last", false)
        case "rrule":
            guard case .string(let rule)? = choice.parameters["rule"] else { return nil }
            let parts = Dictionary(rule.uppercased().split(separator: ";").compactMap { part -> (String, String)? in
                let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
                return pair.count == 2 ? (pair[0], pair[1]) : nil
            }, uniquingKeysWith: { first, _ in first })
            guard parts["FREQ"] == "MONTHLY", parts["BYSETPOS"] == nil,
                  let days = parts["BYMONTHDAY"]?.split(separator: ",").compactMap({ Int($0) }), !days.isEmpty, days.allSatisfy({ $0 > 0 }),
                  let latest = days.max(), latest >= 29 else { return nil }
            (day, takesLastDay, isCalendarRule) = (latest, false, true)
        default:
            return nil
        }
    }

    /// The months (1 … 12) without `day` in a common year: February for 29 and 30; February,
    /// April, June, September and November for 31.
    public var shortMonths: [Int] { day == 31 ? [2, 4, 6, 9, 11] : [2] }
}
