/// A count in the unit a habit counts in, as the reports and views say it: "4 weeks", "1 day",
/// "4주", "1일".
public enum CountPhrase {
    public static func english(_ count: Int, _ unit: CountUnit) -> String {
        let word: String
        switch unit {
        case .days, .windows: word = "day"
        case .weeks: word = "week"
        case .months: word = "month"
        }
        return "\(count) \(count == 1 ? word : word + "s")"
    }

    public static func korean(_ count: Int, _ unit: CountUnit) -> String {
        switch unit {
        case .days, .windows: "\(count)일"
        case .weeks: "\(count)주"
        case .months: "\(count)개월"
        }
    }
}
