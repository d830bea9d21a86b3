import StackDay

/// A command line that does not fit the command's shape (exit 64).
struct UsageError: Error, CustomStringConvertible {
    let message: String
    /// The command whose usage line follows the message.
    let path: [String]

    var description: String { message }
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
