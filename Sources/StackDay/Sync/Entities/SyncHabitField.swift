/// A habit's fields that merge one by one, each last-writer-wins by its own stamp: a rename on
/// one device and an archive on another both hold. `updatedAt` is one of them, so a merged
/// habit's is the latest edit's that it kept. The raw value is the field's name on the wire.
public enum SyncHabitField: String, Sendable, Hashable, CaseIterable, Comparable {
    case name
    case startedOn
    case archivedOn
    case unit
    case updatedAt
    case position
    case colorTag
    case stepThousandths
    case question
    case description

    /// The field as a person knows it, for messages (`colour`, `step`, `start day`).
    public var label: String {
        switch self {
        case .name: "name"
        case .startedOn: "start day"
        case .archivedOn: "archive day"
        case .unit: "unit"
        case .updatedAt: "last change"
        case .position: "place in the list"
        case .colorTag: "colour"
        case .stepThousandths: "step"
        case .question: "question"
        case .description: "description"
        }
    }

    /// A value of this field as said to a person: its text, `none` for no value (not archived), a
    /// step in the units a person enters (`2.5`, not the stored thousandths).
    public func text(_ value: JSONValue) -> String {
        if self == .stepThousandths, let thousandths = value.numberValue {
            return Quantity.describe(thousandths / 1000)
        }
        return value.stringValue ?? (value == .null ? "none" : value.jsonText)
    }

    public static func < (lhs: SyncHabitField, rhs: SyncHabitField) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
