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

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}

/// Some habits were printed with an error in their row because a policy failed for them (exit 1).
struct HabitsFailed: Error, CustomStringConvertible {
    let failures: [HabitFailure]

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
