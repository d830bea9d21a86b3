/// A built-in schedule said as an RFC 5545 recurrence rule, with the same days in Swift to check
/// the rule against: a calendar feed states a habit's schedule as a rule only where one says it
/// exactly (`daily`, `weekdays`, `weekly`, `every-n-days`, `monthly-day`, `monthly-last-day`,
/// `monthly-nth-weekday`; `rrule` is its own rule), and lists dated days otherwise.
public struct ScheduleRecurrence: Sendable {
    /// The `RRULE` value, without `UNTIL` (the caller adds the end it knows).
    public let rule: String
    /// Days the rule takes out (`EXDATE`) and adds (`RDATE`): the `rrule` policy's lists.
    public let excluded: [LocalDay]
    public let included: [LocalDay]
    /// Whether the rule makes `day` an occurrence; nil for a pasted rule, which Swift does not expand.
    public let isDue: (@Sendable (LocalDay) -> Bool)?

    /// RFC 5545's weekday codes, Monday first as `SchedulePhrase.weekdayOrder`.
    static let codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    static var names: [String] { SchedulePhrase.weekdayOrder }

    /// The recurrence of `choice` for a habit started on `startedOn`; nil for a schedule no rule
    /// states (a quota, a script of the user's) or parameters it cannot read.
    public init?(_ choice: PolicyChoice, startedOn: LocalDay) {
        let parameters = choice.parameters
        func integer(_ key: String) -> Int? { parameters[key]?.numberValue.flatMap { $0 == $0.rounded() ? Int($0) : nil } }
        var excluded: [LocalDay] = [], included: [LocalDay] = []
        switch choice.name {
        case "daily":
            rule = "FREQ=DAILY"
            isDue = { _ in true }
        case "weekdays":
            rule = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
            isDue = { $0.weekday <= 5 }
        case "weekly":
            guard let days = parameters["days"]?.arrayValue?.compactMap({ $0.stringValue.flatMap { Self.names.firstIndex(of: $0.lowercased()) } }),
                  !days.isEmpty else { return nil }
            let set = Set(days)
            rule = "FREQ=WEEKLY;BYDAY=" + set.sorted().map { Self.codes[$0] }.joined(separator: ",")
            isDue = { set.contains($0.weekday - 1) }
        case "every-n-days":
            guard let every = integer("every"), every >= 1 else { return nil }
            // The interval counts from the rule's start, which the caller sets on a due day.
            rule = every == 1 ? "FREQ=DAILY" : "FREQ=DAILY;INTERVAL=\(every)"
            isDue = { day in
                let since = startedOn.days(to: day)
                return since >= 0 && since % every == 0
            }
        case "monthly-day":
            guard let day = integer("day"), (1...31).contains(day) else { return nil }
            let last = parameters["shortMonth"]?.stringValue == "last"
            // "Or the month's last day": the latest of 28 … day that the month has (RFC 5545 §3.3.10, BYSETPOS).
            rule = last && day > 28 ? "FREQ=MONTHLY;BYMONTHDAY=" + (28...day).map(String.init).joined(separator: ",") + ";BYSETPOS=-1"
                                    : "FREQ=MONTHLY;BYMONTHDAY=\(day)"
            isDue = { $0.day == day || (last && day > $0.daysInMonth && $0.day == $0.daysInMonth) }
        case "monthly-last-day":
            rule = "FREQ=MONTHLY;BYMONTHDAY=-1"
            isDue = { $0.day == $0.daysInMonth }
        case "monthly-nth-weekday":
            guard let nth = integer("nth"), nth == -1 || (1...5).contains(nth),
                  let weekday = parameters["weekday"]?.stringValue.flatMap({ Self.names.firstIndex(of: $0.lowercased()) }) else { return nil }
            rule = "FREQ=MONTHLY;BYDAY=\(nth)\(Self.codes[weekday])"
            isDue = { day in
                day.weekday - 1 == weekday && (nth == -1 ? day.day + 7 > day.daysInMonth : (day.day - 1) / 7 + 1 == nth)
            }
        case "rrule":
            guard let text = parameters["rule"]?.stringValue, !text.isEmpty,
                  text.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0 != ":" }) else { return nil }
            func days(_ key: String) -> [LocalDay] {
                (parameters[key]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap { try? LocalDay(iso: $0) } }
            }
            rule = text.hasPrefix("RRULE:") ? String(text.dropFirst(6)) : text
            excluded = days("exclude")
            included = days("include")
            isDue = nil
        default:
            return nil
        }
        self.excluded = excluded
        self.included = included
    }

    /// Whether the rule already has an end (`UNTIL` or `COUNT`), which the caller must not add to.
    public var isBounded: Bool {
        rule.uppercased().split(separator: ";").contains { $0.hasPrefix("UNTIL=") || $0.hasPrefix("COUNT=") }
    }
}
