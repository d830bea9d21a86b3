import Foundation
import StackDay

/// Recording, undoing and skipping days.
extension Application {
    /// `record`, `POST /v1/habits/{name}/records`: `amount` (default 1) for the day `on` (default
    /// today) or for the day the instant `at` falls on, not both; `note`, a text kept with it.
    public func record(_ name: String, _ fields: RequestFields) throws -> CompletionView {
        try fields.check(allowed: ["amount", "on", "at", "note"])
        let amount = try fields.number("amount") ?? 1
        let note = try fields.string("note")
        let record = RecordCompletion(context: context)
        if let instant = try fields.instant("at") {
            guard !fields.has("on") else { throw RequestError("\(fields.label("on")) and \(fields.label("at")) cannot be used together") }
            return CompletionView(completion: try record(habitName: name, amount: amount, at: instant, note: note), habit: name)
        }
        return CompletionView(completion: try record(habitName: name, amount: amount, on: try fields.day("on"), note: note), habit: name)
    }

    /// `undo`, `DELETE /v1/habits/{name}/records/latest`: the latest record of the day `on` (default today).
    public func undo(_ name: String, _ fields: RequestFields) throws -> CompletionView {
        try fields.check(allowed: ["on"])
        return CompletionView(completion: try CancelCompletion(context: context)(habitName: name, on: try fields.day("on")), habit: name)
    }

    /// `DELETE /v1/habits/{name}/records/{id}`, the web's remove button: the record `id` of the
    /// habit `name` (another habit's is not found).
    public func removeRecord(_ name: String, _ fields: RequestFields) throws {
        try fields.check(allowed: ["id"])
        let text = try fields.requiredString("id")
        guard let id = UUID(uuidString: text) else { throw RequestError("invalid value for \(fields.label("id")): '\(text)' is not a record id") }
        let habit = try FindHabit(context: context)(named: name)
        guard let record = try context.store.read({ try $0.completions.completion(id: id) }), record.habitID == habit.id else {
            throw UseCaseError.completionNotFound(id: text)
        }
        try CancelCompletion(context: context)(id: id)
    }

    /// `skip`, `POST /v1/habits/{name}/skips`: the day `on`, or `from` … `to` (`to` defaults to
    /// `from`), else today.
    public func skip(_ name: String, _ fields: RequestFields) throws -> SkipsView {
        let range = try days(fields)
        return SkipsView(habit: name, days: range, skips: try SkipDays(context: context)(habitName: name, days: range))
    }

    /// `unskip NAME`, `DELETE /v1/habits/{name}/skips`: the skips of `on` (default today), or of
    /// `from` … `to`, taken back.
    public func unskip(_ name: String, _ fields: RequestFields) throws -> UnskipsView {
        let range = try days(fields)
        return UnskipsView(habit: name, days: range, skips: try UnskipDays(context: context)(.name(name), days: range))
    }

    /// The days `on` (default today), or `from` with an optional `to`, names.
    private func days(_ fields: RequestFields) throws -> LocalDayRange {
        try fields.check(allowed: ["on", "from", "to"])
        switch (try fields.day("on"), try fields.day("from"), try fields.day("to")) {
        case (let day?, nil, nil): return LocalDayRange(day, day)
        case (nil, let from?, let to): return LocalDayRange(from, to ?? from)
        case (nil, nil, nil): return LocalDayRange(today, today)
        default: throw RequestError("give \(fields.label("on")), or \(fields.label("from")) with an optional \(fields.label("to"))")
        }
    }
}
