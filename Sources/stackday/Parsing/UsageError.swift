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
