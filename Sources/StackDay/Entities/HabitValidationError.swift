import Foundation
/// A value that breaks an entity's own rules (a blank name, a goal of zero, …).
public enum HabitValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    case emptyName
    case nameTooLong(length: Int, limit: Int)
    case controlCharacterInName(code: UInt32)
    case unitTooLong(length: Int, limit: Int)
    case controlCharacterInUnit(code: UInt32)
    case invalidGoal(Double)
    case invalidAmount(Double)
    case noteTooLong(length: Int, limit: Int)
    case nulInNote
    case archivedBeforeStart(archivedOn: LocalDay, startedOn: LocalDay)
    case parametersNotJSON(policy: String, reason: String)
    case parametersNotObject(policy: String, text: String)
    case dayOutOfRange(LocalDay)
    case invalidRevisionNumber(Int)
    /// Revisions must be numbered 1, 2, 3, … in order.
    case revisionsOutOfOrder(expected: Int, found: Int)
    /// Policy parameters given beside a schedule that is read, not named (a phrase, a pasted rule).
    case parametersBesideReadSchedule(what: String)
    case invalidStep(Double)
    case invalidPosition(Int)
    /// A habit's question or description (`field`) longer than `Habit.textLimit`, or holding a NUL.
    case textTooLong(field: String, length: Int, limit: Int)
    case nulInText(field: String)

    public var description: String {
        switch self {
        case .emptyName:
            return "a habit name cannot be empty"
        case .nameTooLong(let length, let limit):
            return "a habit name can have at most \(limit) characters (this one has \(length))"
        case .controlCharacterInName(let code):
            return String(format: "a habit name cannot hold control characters (it has U+%04X)", code)
        case .controlCharacterInUnit(let code):
            return String(format: "a unit cannot hold control characters (it has U+%04X)", code)
        case .unitTooLong(let length, let limit):
            return "a unit can have at most \(limit) characters (this one has \(length))"
        case .invalidGoal(let goal):
            return "the goal must be a finite number of at least 0.001 with at most 3 decimals (got \(Quantity.describe(goal)))"
        case .invalidAmount(let amount):
            return "an amount must be a finite number of at least 0.001 with at most 3 decimals (got \(Quantity.describe(amount)))"
        case .noteTooLong(let length, let limit):
            return "a note can have at most \(limit) characters (this one has \(length))"
        case .nulInNote:
            return "a note cannot hold a NUL character"
        case .archivedBeforeStart(let archivedOn, let startedOn):
            return "cannot archive on \(archivedOn): the habit starts on \(startedOn)"
        case .parametersNotJSON(let policy, let reason):
            return "parameters for policy '\(policy)' are not valid JSON: \(reason)"
        case .dayOutOfRange(let day):
            return "day \(day) is outside 0001-01-01 … 9999-12-31"
        case .invalidRevisionNumber(let number):
            return "a rule revision is numbered from 1 (got \(number))"
        case .revisionsOutOfOrder(let expected, let found):
            return "rule revisions must be numbered 1, 2, 3, … in order: expected \(expected), found \(found)"
        case .parametersBesideReadSchedule(let what):
            return "\(what) takes no parameters: it says them itself (give a policy's name to give parameters)"
        case .invalidStep(let step):
            return "a step must be a finite number from 0.001 to 1000000000 with at most 3 decimals (got \(Quantity.describe(step)))"
        case .invalidPosition(let position):
            return "a position must be a whole number from 0 to \(Habit.positionLimit) (got \(position))"
        case .textTooLong(let field, let length, let limit):
            return "a habit's \(field) can have at most \(limit) characters (this one has \(length))"
        case .nulInText(let field):
            return "a habit's \(field) cannot hold a NUL character"
        case .parametersNotObject(let policy, let text):
            return "parameters for policy '\(policy)' must be a JSON object like {\"key\": 1}, not \(text)"
        }
    }
}
