import Foundation
import StackDay
import StackDayApplication
import StackDayExchange

/// `stackday record`, `undo`, `skip`, `unskip` and `log`.
enum RecordCommand {
    static var record: CommandSpec {
        CommandSpec(
            name: "record", abstract: "Record an amount for a habit.",
            discussion: "Without --on or --at the day is today. --at turns an instant into a day through --tz and --day-starts-at.",
            run: runRecord
        ).taking([HabitCommand.name.declaration] + RecordRequest.fields)
    }

    static var undo: CommandSpec {
        CommandSpec(name: "undo", abstract: "Remove the latest completion of a day.", run: runUndo).taking([HabitCommand.name.declaration] + UndoRequest.fields)
    }

    static var skip: CommandSpec {
        CommandSpec(name: "skip", abstract: "Excuse a day or a range of days; a skipped day neither counts nor breaks a streak.", run: runSkip)
            .taking([HabitCommand.name.declaration] + SkipRequest.fields)
    }

    static var unskip: CommandSpec {
        CommandSpec(name: "unskip", abstract: "Take back the skip of a day or of a range of days; they count again.", run: runUnskip)
            .taking([HabitCommand.name.declaration] + SkipRequest.fields)
    }

    static var log: CommandSpec {
        CommandSpec(name: "log", abstract: "List a habit's records: day, amount, when each was recorded, and its note.", run: runLog)
            .taking([HabitCommand.name.declaration] + RecordLogRequest.fields)
    }

    static func runRecord(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let app = try environment.application()
        let view = try app.record(invocation.required(HabitCommand.name), invocation.request())
        environment.io.committed = "recorded"
        if environment.printedJSON(view) { return }
        let amount = Quantity.describe(view.completion.amount), day = view.completion.completedOn
        let korean = environment.language == .korean
        environment.io.print(korean ? "기록했습니다: '\(view.habit)', \(day), \(amount)" + (view.completion.note == nil ? "" : ", 메모 포함")
                                    : "Recorded \(amount) for '\(view.habit)' on \(day)" + (view.completion.note == nil ? "." : ", with a note."))
        // A record on a day the schedule does not ask for is kept, and said: it may be a slip of the day.
        if case .days(let timeline, _)? = (try? app.calendar([view.habit], CalendarRequest(from: day, to: day)))?.sheets.first, timeline.entry(on: day)?.isDue == false {
            environment.io.print(korean ? "\(day)은(는) '\(view.habit)'의 일정에 없는 날입니다. 기록은 남았습니다."
                                        : "\(day) is not a due day for '\(view.habit)' by its schedule; the record is kept.")
        }
    }

    static func runUndo(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().undo(invocation.required(HabitCommand.name), invocation.request())
        environment.io.committed = "undone"
        if environment.printedJSON(view) { return }
        let amount = Quantity.describe(view.completion.amount), day = view.completion.completedOn
        environment.io.print(environment.language == .korean ? "지웠습니다: '\(view.habit)', \(day), \(amount)"
                                                             : "Removed \(amount) recorded for '\(view.habit)' on \(day).")
    }

    static func runSkip(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().skip(invocation.required(HabitCommand.name), invocation.request())
        environment.io.committed = "skipped"
        if environment.printedJSON(view) { return }
        let count = view.skips.count
        let span = view.days.first == view.days.last ? "\(view.days.first)" : "\(view.days.first) … \(view.days.last)"
        // Skipping a day already skipped changes nothing, and says so (taking back a skip that is not there is an error).
        guard count > 0 else {
            return environment.io.print(environment.language == .korean ? "이미 건너뛴 날입니다: '\(view.habit)', \(span). 바뀐 것이 없습니다."
                                                                        : "'\(view.habit)' is already skipped on \(span); nothing changed.")
        }
        environment.io.print(environment.language == .korean ? "건너뛰었습니다: '\(view.habit)', \(count)일 (\(view.days.first) … \(view.days.last))"
                                                             : "Skipped \(count) day\(count == 1 ? "" : "s") of '\(view.habit)' (\(view.days.first) … \(view.days.last)).")
    }

    static func runUnskip(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().unskip(invocation.required(HabitCommand.name), invocation.request())
        environment.io.committed = "unskipped"
        if environment.printedJSON(view) { return }
        let count = view.skips.count
        environment.io.print(environment.language == .korean ? "건너뛰기를 취소했습니다: '\(view.habit)', \(count)일 (\(view.days.first) … \(view.days.last))"
                                                             : "Took back \(count) skip\(count == 1 ? "" : "s") of '\(view.habit)' (\(view.days.first) … \(view.days.last)).")
    }

    static func runLog(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().recordLog(invocation.required(HabitCommand.name), invocation.request())
        if environment.printedJSON(view) { return }
        guard !view.records.isEmpty else {
            return environment.io.print(environment.language == .korean ? "기록이 없습니다: '\(view.habit.name)', \(view.days.first) … \(view.days.last)"
                                                                        : "No records of '\(view.habit.name)' from \(view.days.first) to \(view.days.last).")
        }
        let unit = view.habit.unit
        // The NOTE column is there when a record has one; a table row is one line, so a note's
        // line breaks are shown as ⏎.
        let notes = view.records.contains { $0.note != nil }
        let rows = [(["DAY", "AMOUNT", "RECORDED AT"] + (notes ? ["NOTE"] : [])).map { environment.words[$0] }] + view.records.map { record in
            [record.completedOn.iso, Format.quantity(record.amount, unit: unit), InstantText.local(record.recordedAt, in: environment.boundary.timeZone)]
                + (notes ? [(record.note ?? "").split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(separator: " ⏎ ")] : [])
        }
        Format.table(rows).forEach(environment.io.print)
    }
}
