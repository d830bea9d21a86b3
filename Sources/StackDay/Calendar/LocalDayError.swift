/// Why a `LocalDay` could not be built or parsed.
public enum LocalDayError: Error, Equatable, Sendable, CustomStringConvertible {
    case yearOutOfRange(Int)
    case invalidMonth(Int)
    case invalidDay(year: Int, month: Int, day: Int)
    case ordinalOutOfRange(Int)
    case malformed(String)

    public var description: String {
        switch self {
        case .yearOutOfRange(let year):
            return "year \(year) is outside 1…9999"
        case .invalidMonth(let month):
            return "month \(month) does not exist (expected 1…12)"
        case .invalidDay(let year, let month, let day):
            let length = CivilDate.daysInMonth(year: year, month: month)
            return "\(LocalDay.format(year: year, month: month, day: day)) does not exist: that month has \(length) days"
        case .ordinalOutOfRange(let ordinal):
            return "day number \(ordinal) is outside 0001-01-01 … 9999-12-31"
        case .malformed(let text):
            return "'\(text)' is not a day; expected YYYY-MM-DD"
        }
    }
}
