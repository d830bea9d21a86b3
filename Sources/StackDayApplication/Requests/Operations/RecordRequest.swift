import Foundation
import StackDay

/// `record`, `POST /v1/habits/{name}/records`: an amount (default 1) for a day (default today)
/// or for the day an instant falls on, with a note.
public struct RecordRequest: RequestType {
    public static let amount = RequestField<Double>.number("amount", help: "How much (default: 1).").argument("amount")
    public static let on = RequestField<LocalDay>.day("on", help: "The day it counts for, YYYY-MM-DD.")
    public static let at = RequestField<Date>.instant("at", help: "When it happened, ISO 8601 with an offset.")
    public static let note = RequestField<String>.text("note", help: "A note kept with the record (at most \(Completion.noteLimit) characters).",
                                                       schema: ["maxLength": .number(Double(Completion.noteLimit))])

    public static let fields = [amount.declaration, on.declaration, at.declaration, note.declaration]

    /// Which day the amount counts for.
    public enum When: Sendable, Equatable {
        case today
        case day(LocalDay)
        /// The day this instant falls on, by the user's zone and day start.
        case instant(Date)
    }

    public var amount: Double
    public var when: When
    public var note: String?

    public init(amount: Double = 1, when: When = .today, note: String? = nil) {
        self.amount = amount
        self.when = when
        self.note = note
    }

    public init(_ fields: RequestFields) throws {
        let on = try fields[Self.on], at = try fields[Self.at]
        if at != nil && on != nil { throw RequestError("\(fields.label(Self.on)) and \(fields.label(Self.at)) cannot be used together") }
        self.init(amount: try fields[Self.amount] ?? 1, when: at.map(When.instant) ?? on.map(When.day) ?? .today, note: try fields[Self.note])
    }
}
