/// A group whose week could not be judged (its rule, its streak rule or a member failed): its
/// name and the message, as the report prints it.
public struct WeeklyGroupFailure: Error, Hashable, Sendable {
    public let name: String
    public let message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }
}
