import Foundation

/// What a schedule given by a person names: a policy (`weekly` with its parameters), a recurrence
/// pasted from a calendar (`RRULE:…`, `DTSTART…` lines, a `VEVENT`), or a phrase (`mon wed fri`).
///
/// Every surface that takes a schedule (`--schedule`, the API's `"schedule"`, the web form,
/// `policy preview`) reads it here, so each stores the same choice for the same words.
public struct ScheduleInput: Sendable, Equatable {
    /// The policy and parameters to store.
    public let choice: PolicyChoice
    /// A pasted recurrence's DTSTART: the habit's start when none is given.
    public let start: LocalDay?
    /// A pasted event's SUMMARY: the habit's name when none is given.
    public let summary: String?
    /// Whether the choice was read from words or pasted text (and so is worth showing back).
    public let wasRead: Bool
    /// A pasted event's alarms (or its start time), as reminder times: the habit's reminders
    /// when none are given.
    public var reminders: [ReminderTime] = []

    /// Reads `text` with the parameters given beside it. A text that is a policy's name (one
    /// `isPolicy` knows, or any name the phrase grammar does not read) names that policy; the
    /// `rrule` policy's `rule` may itself be pasted text. `timeZone` is the habit's, for UTC
    /// times; `habitStart` the start the habit is given, if any.
    public init(_ text: String, parameters: [String: JSONValue]?, timeZone: TimeZone, habitStart: LocalDay?,
                isPolicy: (String) -> Bool) throws {
        let trimmed = text.trimmedWhitespace
        if PastedRecurrence.needsReading(trimmed) || trimmed.uppercased().hasPrefix("FREQ=") {
            guard parameters?.isEmpty ?? true else {
                throw HabitValidationError.parametersBesideReadSchedule(what: "a pasted calendar rule")
            }
            let pasted = try PastedRecurrence(parsing: trimmed, timeZone: timeZone)
            self.init(choice: PolicyChoice(name: "rrule", parameters: pasted.parameters(habitStart: habitStart ?? pasted.start)),
                      start: pasted.start, summary: pasted.summary, wasRead: true)
            reminders = pasted.reminders
            return
        }
        if Self.isPolicyName(trimmed), isPolicy(trimmed) || (try? SchedulePhrase(trimmed)) == nil {
            var parameters = parameters ?? [:]
            var start: LocalDay?
            if trimmed == "rrule", case .string(let rule)? = parameters["rule"], PastedRecurrence.needsReading(rule) {
                let pasted = try PastedRecurrence(parsing: rule, timeZone: timeZone)
                start = pasted.start
                // What the parameters say beside the pasted rule wins over what the rule's lines say.
                for (key, value) in pasted.parameters(habitStart: parameters["start"] == nil ? habitStart ?? pasted.start : nil)
                where key == "rule" || parameters[key] == nil {
                    parameters[key] = value
                }
            }
            self.init(choice: PolicyChoice(name: trimmed, parameters: parameters), start: start, summary: nil, wasRead: start != nil)
            return
        }
        guard parameters?.isEmpty ?? true else { throw HabitValidationError.parametersBesideReadSchedule(what: "a schedule in words") }
        self.init(choice: try SchedulePhrase(trimmed).choice, start: nil, summary: nil, wasRead: true)
    }

    init(choice: PolicyChoice, start: LocalDay?, summary: String?, wasRead: Bool) {
        self.choice = choice
        self.start = start
        self.summary = summary
        self.wasRead = wasRead
    }

    /// `weekly {"days":["mon","wed","fri"]}`, or the name alone for a policy without parameters.
    public var shown: String { choice.described() }

    /// Letters, digits, `-` and `_`, at most 64: the names policies have.
    static func isPolicyName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}
