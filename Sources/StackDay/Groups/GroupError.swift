import Foundation

/// Why a group or a request about one was refused; each message says what to change.
public enum GroupError: Error, Equatable, Sendable, CustomStringConvertible, CodedError {
    case emptyName
    case nameTooLong(length: Int, limit: Int)
    case controlCharacterInName(code: UInt32)
    case noMembers
    case memberTwice
    case tooManyMembers(count: Int, limit: Int)
    case invalidRevisionNumber(Int)
    case revisionsOutOfOrder(expected: Int, found: Int)
    case revisionBeforeEarlier(day: LocalDay, earlier: LocalDay)
    case groupNotFound(name: String, suggestion: String?)
    case duplicateName(name: String)
    /// A member named that is no habit of the user's.
    case memberNotFound(name: String, suggestion: String?)
    case nothingToChange(group: String)
    case nothingToRollBack(group: String)

    public var description: String {
        switch self {
        case .emptyName: "a group's name must not be empty"
        case .nameTooLong(let length, let limit): "a group's name is \(length) characters; at most \(limit)"
        case .controlCharacterInName(let code): "a group's name must not hold control characters (U+\(String(code, radix: 16, uppercase: true)))"
        case .noMembers: "a group needs at least one member"
        case .memberTwice: "a group lists each member once"
        case .tooManyMembers(let count, let limit): "a group of \(count) members; at most \(limit)"
        case .invalidRevisionNumber(let number): "revision number \(number) must be 1 or more"
        case .revisionsOutOfOrder(let expected, let found): "group revisions must be numbered in order: expected \(expected), found \(found)"
        case .revisionBeforeEarlier(let day, let earlier): "a group's revision from \(day) cannot come before the one from \(earlier)"
        case .groupNotFound(let name, let suggestion): "no group named '\(name)'" + DidYouMean.hint(suggestion)
        case .duplicateName(let name): "a group named '\(name)' exists already"
        case .memberNotFound(let name, let suggestion): "no habit named '\(name)' to be a member" + DidYouMean.hint(suggestion)
        case .nothingToChange(let group): "nothing to change in group '\(group)': give a new name, members, a rule or a streak rule"
        case .nothingToRollBack(let group): "group '\(group)' has one revision; there is nothing to roll back"
        }
    }

    public var code: ErrorCode {
        switch self {
        case .groupNotFound: .groupNotFound
        case .memberNotFound: .habitNotFound
        case .duplicateName: .duplicateName
        default: .invalidInput
        }
    }
}
