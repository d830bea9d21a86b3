import StackDay

/// A command line that does not fit the command's shape (exit 64).
struct UsageError: Error, CustomStringConvertible {
    let message: String
    /// The message in Korean, where the parser found the problem (`Problem`).
    let korean: String?
    /// The command whose usage line follows the message.
    let path: [String]

    init(message: String, path: [String]) {
        self.message = message
        korean = nil
        self.path = path
    }

    init(_ problem: Problem, path: [String]) {
        message = problem.english
        korean = problem.korean
        self.path = path
    }

    var description: String { message }

    /// What the parser can find wrong, in either language.
    enum Problem {
        case takesNoValue(option: String)
        case missingValue(option: String)
        case unknownCommand(String, suggestion: String?)
        case unknownOption(String, suggestion: String?)
        case missingSubcommand
        case missingArgument(String)
        case unexpectedArgument(String)

        var english: String {
            switch self {
            case .takesNoValue(let option): return "--\(option) does not take a value"
            case .missingValue(let option): return "missing value for --\(option)"
            case .unknownCommand(let token, let suggestion): return "unknown command '\(token)'" + DidYouMean.hint(suggestion)
            case .unknownOption(let token, let suggestion): return "unknown option '\(token)'" + DidYouMean.hint(suggestion)
            case .missingSubcommand: return "missing subcommand"
            case .missingArgument(let name): return "missing expected argument '<\(name)>'"
            case .unexpectedArgument(let token): return "unexpected argument '\(token)'"
            }
        }

        var korean: String {
            switch self {
            case .takesNoValue(let option): return "값을 받지 않는 옵션입니다: --\(option)"
            case .missingValue(let option): return "값이 빠졌습니다: --\(option)"
            case .unknownCommand(let token, let suggestion): return "없는 명령입니다: '\(token)'" + DidYouMean.koreanHint(suggestion)
            case .unknownOption(let token, let suggestion): return "없는 옵션입니다: '\(token)'" + DidYouMean.koreanHint(suggestion)
            case .missingSubcommand: return "하위 명령이 빠졌습니다"
            case .missingArgument(let name): return "인자가 빠졌습니다: <\(name)>"
            case .unexpectedArgument(let token): return "예상하지 못한 인자입니다: '\(token)'"
            }
        }
    }
}

/// A request that was understood but failed (exit 1).
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    /// The code a `--json` error carries.
    let code: ErrorCode

    init(_ message: String, code: ErrorCode = .invalidInput) {
        self.message = message
        self.code = code
    }

    var description: String { message }
}

/// Some habits were printed with an error in their row because a policy failed for them (exit 1).
/// A command that ends with a status of its own and nothing more to say (`today --exit-status`
/// exits 1 while something is still open): no error line is printed.
struct ExitStatus: Error {
    let code: Int32
}

struct HabitsFailed: Error, CustomStringConvertible {
    let failures: [HabitFailure]

    /// The first failure's code (a policy's: failed or over its budget).
    var code: ErrorCode { failures.first.map { ErrorCode.of($0) } ?? .policyFailed }

    /// Throws when `failures` is not empty.
    static func check(_ failures: [HabitFailure]) throws {
        if !failures.isEmpty { throw HabitsFailed(failures: failures) }
    }

    var description: String {
        let names = failures.map { "'\($0.habit.name)'" }.joined(separator: ", ")
        let noun = failures.count == 1 ? "habit" : "habits"
        return "a policy failed for \(failures.count) \(noun) (\(names)); the other habits are shown as usual"
    }
}

/// Groups whose rule, streak rule or a member failed: shown in their rows, then exit 1.
struct GroupsFailed: Error, CustomStringConvertible {
    let failures: [GroupFailure]

    var code: ErrorCode { failures.first.map { ErrorCode.of($0.underlying) } ?? .policyFailed }

    /// Throws when a result failed.
    static func check(_ results: [Result<GroupSummary, GroupFailure>]) throws {
        let failures = results.compactMap { result -> GroupFailure? in
            if case .failure(let failure) = result { return failure }
            return nil
        }
        if !failures.isEmpty { throw GroupsFailed(failures: failures) }
    }

    var description: String {
        let names = failures.map { "'\($0.group.name)'" }.joined(separator: ", ")
        return "a rule failed for \(failures.count == 1 ? "group" : "groups") \(names); the rest is shown as usual"
    }
}
