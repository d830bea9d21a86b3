import StackDay
import StackDayExchange

/// A user without its token: `{"name", "timeZone", "dayStartsAt", "language", "createdAt",
/// "hasPassword"}` (`language` null until chosen; never the password's hash).
public struct UserView: JSONView {
    public let user: User

    public init(_ user: User) {
        self.user = user
    }

    public var json: JSONValue {
        .object([
            "name": .string(user.name), "timeZone": .string(user.timeZone), "dayStartsAt": .string(user.dayStart.description),
            "createdAt": .string(InstantText.format(user.createdAt)), "language": ViewJSON.string(user.language),
            "hasPassword": .bool(user.passwordHash != nil), "weekStartsOn": .string(user.weekStart.rawValue),
        ])
    }
}
