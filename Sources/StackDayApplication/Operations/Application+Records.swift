import Foundation
import StackDay

/// Recording, undoing and skipping days.
extension Application {
    /// `record`, `POST /v1/habits/{name}/records`: an amount for a day, or for the day an instant
    /// falls on, with a note.
    public func record(_ name: String, _ request: RecordRequest) throws -> CompletionView {
        let record = RecordCompletion(context: context)
        let completion = switch request.when {
        case .instant(let instant): try record(habitName: name, amount: request.amount, at: instant, note: request.note)
        case .day(let day): try record(habitName: name, amount: request.amount, on: day, note: request.note)
        case .today: try record(habitName: name, amount: request.amount, on: nil, note: request.note)
        }
        // A webhook told of a streak's milestone; the record stands whatever this finds.
        try? ManageWebhooks(context: context).queueMilestone(habit: name, day: completion.completedOn)
        return CompletionView(completion: completion, habit: name)
    }

    /// `undo`, `DELETE /v1/habits/{name}/records/latest`: the latest record of a day (default today).
    public func undo(_ name: String, _ request: UndoRequest = UndoRequest()) throws -> CompletionView {
        CompletionView(completion: try CancelCompletion(context: context)(habitName: name, on: request.on), habit: name)
    }

    /// The web's remove button: the record `id` of the habit `name` (another habit's is not found).
    public func removeRecord(_ name: String, _ request: RemoveRecordRequest) throws {
        let habit = try FindHabit(context: context)(named: name)
        guard let record = try context.store.read({ try $0.completions.completion(id: request.id) }), record.habitID == habit.id else {
            throw UseCaseError.completionNotFound(id: request.id.uuidString)
        }
        try CancelCompletion(context: context)(id: request.id)
    }

    /// `skip`, `POST /v1/habits/{name}/skips`: the days asked, else today.
    public func skip(_ name: String, _ request: SkipRequest = SkipRequest()) throws -> SkipsView {
        let range = request.days ?? LocalDayRange(today, today)
        return SkipsView(habit: name, days: range, skips: try SkipDays(context: context)(habitName: name, days: range))
    }

    /// `unskip NAME`, `DELETE /v1/habits/{name}/skips`: the skips of the days asked (default
    /// today) taken back.
    public func unskip(_ name: String, _ request: SkipRequest = SkipRequest()) throws -> UnskipsView {
        let range = request.days ?? LocalDayRange(today, today)
        return UnskipsView(habit: name, days: range, skips: try UnskipDays(context: context)(.name(name), days: range))
    }
}
