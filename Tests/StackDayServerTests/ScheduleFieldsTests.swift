import Foundation
import StackDay
import StackDayApplication
import StackDayLua
import Testing

/// The `schedule` field as every surface gives it to the application layer: a policy's name, words,
/// or a pasted calendar rule; and the built-ins that refuse to guess a parameter.
@Suite("schedule fields")
struct ScheduleFieldsTests {
    func application() throws -> Application {
        let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
        let clock = FixedClock(Date(timeIntervalSince1970: 1_796_263_200)) // 2026-12-03 02:00 UTC
        return Application(context: HabitContext(store: InMemoryHabitStore(), clock: clock, boundary: DayBoundary(timeZone: seoul),
                                                 policies: try PolicyLibrary(searchPath: [])))
    }

    func fields<R: RequestType>(_ values: [String: JSONValue]) throws -> R {
        try RequestFields(values: values.mapValues { RequestFields.Value.json($0) }, surface: .http).decode()
    }

    @Test("words are stored as the built-in and parameters they mean, and shown back", arguments: [
        ("mon wed fri", "weekly", #"{"days":["mon","wed","fri"]}"#),
        ("주 3회", "times-per-week", #"{"times":3}"#),
        ("격주 화요일", "rrule", #"{"rule":"FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"}"#),
        ("weekly", nil, nil),
    ])
    func words(_ text: String, _ policy: String?, _ parameters: String?) throws {
        let app = try application()
        do {
            let view = try app.createHabit(try fields(["name": .string("h"), "schedule": .string(text)]))
            #expect(view.habit.schedule.name == policy && view.habit.schedule.parametersJSON == parameters)
            #expect(view.scheduleShown == "\(policy ?? "") \(parameters ?? "")")
        } catch {
            // `weekly` alone: no day is guessed.
            #expect(policy == nil && "\(error)".contains("weekly needs parameter 'days'") && "\(error)".contains(#"{"days":["mon","wed","fri"]}"#), "\(error)")
            #expect(ErrorCode.of(error) == .invalidParameter)
            #expect(try app.listHabits().habits.isEmpty)
        }
    }

    @Test("a pasted event names the habit and gives its start; what is stored is plain")
    func pastedEvent() throws {
        let app = try application()
        let event = "BEGIN:VEVENT\r\nSUMMARY:Piano\r\nDTSTART;TZID=Asia/Seoul:20261103T190000\r\n"
            + "RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270330T145959Z\r\nEXDATE;TZID=Asia/Seoul:20261124T190000\r\nEND:VEVENT\r\n"
        let view = try app.createHabit(try fields(["schedule": .string(event)]))
        #expect(view.habit.name == "Piano" && view.habit.startedOn.iso == "2026-11-03")
        #expect(view.habit.schedule.parametersJSON == #"{"exclude":["2026-11-24"],"rule":"FREQ=WEEKLY;BYDAY=TU;UNTIL=20270330"}"#)
        // Given beside it, a name and a start win; the rule keeps DTSTART as its own start.
        let named = try app.createHabit(try fields(["name": .string("piano 2"), "start": .string("2026-11-01"), "schedule": .string(event)]))
        #expect(named.habit.name == "piano 2" && named.habit.startedOn.iso == "2026-11-01")
        #expect(named.habit.schedule.parameters["start"] == .string("2026-11-03"))
    }

    @Test("words and pasted rules take no parameters; a broken paste names the field", arguments: [
        (#"{"name":"a","schedule":"mon wed fri","scheduleParams":{"days":["tue"]}}"#, "a schedule in words takes no parameters"),
        (#"{"name":"a","schedule":"RRULE:FREQ=DAILY","scheduleParams":{"start":"2026-01-01"}}"#, "a pasted calendar rule takes no parameters"),
        (#"{"name":"a","schedule":"DTSTART:2026\nRRULE:FREQ=DAILY"}"#, "field 'schedule': DTSTART: '2026' is not a date"),
        (#"{"name":"a","schedule":"3 time a wek"}"#, "did you mean '3 times a week'?"),
    ])
    func refused(_ body: String, _ message: String) throws {
        let app = try application()
        let request = try RequestFields(query: [], body: Array(body.utf8))
        #expect(throws: (any Error).self) { try app.createHabit(request.decode()) }
        do { _ = try app.createHabit(request.decode()) } catch { #expect("\(error)".contains(message), "\(error)") }
        #expect(try app.listHabits().habits.isEmpty)
    }

    @Test("an edit takes words too, as a new revision")
    func edit() throws {
        let app = try application()
        _ = try app.createHabit(try fields(["name": .string("run"), "start": .string("2026-11-01")]))
        let view = try app.editHabit("run", try fields(["schedule": .string("every other week on tuesday"), "from": .string("2026-12-01")]))
        #expect(view.revised && view.habit.latest.schedule.name == "rrule")
        #expect(view.scheduleShown == #"rrule {"rule":"FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"}"#)
    }
}
