import StackDay

/// `habit move NAME --before OTHER` (or `--last`): a new place in the list.
public struct MoveHabitRequest: RequestType {
    public static let before = RequestField<String>.text("before", help: "The habit to move it before.", valueName: "habit")
    public static let last = RequestField<Bool>.flag("last", help: "Move it after every other habit.")
    public static let fields = [before.declaration, last.declaration]

    public var place: MoveHabit.Place

    public init(_ place: MoveHabit.Place) {
        self.place = place
    }

    public init(_ fields: RequestFields) throws {
        switch (try fields[Self.before], try fields[Self.last] ?? false) {
        case (let other?, false): place = .before(.name(other))
        case (nil, true): place = .last
        case (_?, true): throw RequestError("\(fields.label(Self.before)) and \(fields.label(Self.last)) cannot be used together")
        case (nil, false): throw RequestError("say where to: \(fields.label(Self.before)) OTHER or \(fields.label(Self.last))")
        }
    }
}
