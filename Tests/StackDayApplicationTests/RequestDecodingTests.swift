import Foundation
import StackDay
import StackDayApplication
import Testing

/// Each request type read from each surface: the values it decodes to, and the one-line refusal,
/// naming the field as that surface spells it, for what the fields alone can refuse.
@Suite("request decoding")
struct RequestDecodingTests {
    /// A JSON body's fields.
    static func body(_ json: String) throws -> RequestFields { try RequestFields(query: [], body: Array(json.utf8)) }

    /// The command line's fields: values as typed, labelled as options.
    static func typed(_ values: [String: String]) -> RequestFields {
        RequestFields(values: values.mapValues { .text($0) }, labels: Dictionary(uniqueKeysWithValues: values.keys.map { ($0, "--" + FieldDeclaration.kebab($0)) }))
    }

    static func refusal<R: RequestType>(_ fields: RequestFields, as type: R.Type) -> String? {
        do { _ = try fields.decode(R.self); return nil } catch { return "\(error)" }
    }

    @Test("refusals name the field as the surface spells it", arguments: [
        (#"{"amout":2}"#, "unknown field 'amout' (did you mean 'amount'?)"),
        (#"{"on":"2026-12-01","at":"2026-12-01T08:00:00+09:00"}"#, "field 'on' and field 'at' cannot be used together"),
        (#"{"amount":"two"}"#, "invalid value for field 'amount': a number is expected"),
        (#"{"on":"2026-13-01"}"#, "invalid value for field 'on'"),
        (#"{"at":"2026-12-01 08:00"}"#, "invalid value for field 'at': '2026-12-01 08:00' is not an ISO 8601 instant with an offset"),
        (#"{"zzz":1}"#, "unknown field 'zzz'"),
    ])
    func recordOverHTTP(_ json: String, _ message: String) throws {
        let refused = Self.refusal(try Self.body(json), as: RecordRequest.self)
        #expect(refused?.hasPrefix(message) == true, "\(refused ?? "decoded")")
    }

    @Test("the command line's refusals say --option", arguments: [
        (["on": "2026-12-01", "at": "2026-12-01T08:00:00+09:00"], "--on and --at cannot be used together"),
        (["amount": "two"], "invalid value for --amount: 'two' is not a number"),
    ])
    func recordOnTheCommandLine(_ values: [String: String], _ message: String) {
        #expect(Self.refusal(Self.typed(values), as: RecordRequest.self) == message)
    }

    @Test("a record's day: today, a day, or the day of an instant")
    func recordDay() throws {
        #expect(try Self.body("{}").decode(RecordRequest.self).when == .today)
        #expect(try Self.body("{}").decode(RecordRequest.self).amount == 1)
        #expect(try Self.body(#"{"on":"2026-12-01","amount":2.5}"#).decode(RecordRequest.self).when == .day(try LocalDay(iso: "2026-12-01")))
        #expect(try Self.body(#"{"at":"2026-12-01T08:00:00Z"}"#).decode(RecordRequest.self).when == .instant(Date(timeIntervalSince1970: 1_796_112_000)))
        #expect(try Self.typed(["amount": "3", "note": "a"]).decode(RecordRequest.self).note == "a")
    }

    @Test("days: one, a range, or a refusal", arguments: [
        (#"{"on":"2026-12-01"}"#, "2026-12-01 … 2026-12-01"),
        (#"{"from":"2026-12-01"}"#, "2026-12-01 … 2026-12-01"),
        (#"{"from":"2026-12-01","to":"2026-12-03"}"#, "2026-12-01 … 2026-12-03"),
        ("{}", "today"),
        (#"{"on":"2026-12-01","from":"2026-12-01"}"#, "give field 'on', or field 'from' with an optional field 'to'"),
        (#"{"to":"2026-12-01"}"#, "give field 'on', or field 'from' with an optional field 'to'"),
    ])
    func days(_ json: String, _ expected: String) throws {
        do {
            let days = try Self.body(json).decode(SkipRequest.self).days
            #expect(days.map { "\($0.first) … \($0.last)" } ?? "today" == expected)
        } catch {
            #expect("\(error)" == expected)
        }
    }

    @Test("excluding pairs and ranges are refused before anything runs", arguments: [
        ("active+archived", "field 'active' and field 'archived' cannot be used together"),
        ("limit", "invalid value for query argument 'limit': '0' is not a page size from 1 to 1000"),
        ("from+retroactive", "field 'from' and field 'retroactive' cannot be used together"),
        ("lang", "invalid value for query argument 'lang': 'fr' (use en or ko)"),
        ("remind", "invalid value for field 'remind'"),
        ("role", "invalid value for field 'role': 'goal' (use schedule, progress, streak or group)"),
        ("to", "invalid value for field 'to': '0' is not a revision number"),
    ])
    func refusals(_ case: String, _ message: String) throws {
        let refused: String? = switch `case` {
        case "active+archived": Self.refusal(try Self.body(#"{"active":true,"archived":true}"#), as: ListHabitsRequest.self)
        case "limit": Self.refusal(try RequestFields(query: [("limit", "0")], body: []), as: ListHabitsRequest.self)
        case "from+retroactive": Self.refusal(try Self.body(#"{"from":"2026-12-01","retroactive":true}"#), as: EditHabitRequest.self)
        case "lang": Self.refusal(try RequestFields(query: [("lang", "fr")], body: []), as: WeekReportRequest.self)
        case "remind": Self.refusal(try Self.body(#"{"name":"a","remind":["25:00"]}"#), as: CreateHabitRequest.self)
        case "role": Self.refusal(try Self.body(#"{"policy":"strict","role":"goal"}"#), as: SimulateRequest.self)
        default: Self.refusal(try Self.body(#"{"to":0}"#), as: RollbackRequest.self)
        }
        #expect(refused?.hasPrefix(message) == true, "\(refused ?? "decoded")")
    }

    @Test("habit rules: each role's policy and parameters, and what changes rules")
    func rules() throws {
        let request = try Self.body(#"{"goal":2,"schedule":"weekly","scheduleParams":{"days":["mon"]},"streakParams":{"grace":1},"remind":"21:00"}"#)
            .decode(EditHabitRequest.self)
        #expect(request.rules.goal == 2 && request.rules.policies == [.schedule: "weekly"])
        #expect(request.rules.parameters == [.schedule: ["days": .array([.string("mon")])], .streak: ["grace": .number(1)]])
        #expect(request.rules.reminders?.map(\.description) == ["21:00"])
        #expect(request.rulesFrom.start == .today && !request.rulesFrom.isGiven)
        #expect(try Self.body(#"{"retroactive":true}"#).decode(EditHabitRequest.self).rulesFrom.start == .retroactive)
    }

    @Test("every body's schema is closed and lists exactly its request's HTTP fields")
    func schemas() {
        for request in ViewSchema.bodyRequests {
            let schema = request.schema.objectValue
            #expect(schema?["additionalProperties"] == .bool(false), "\(request.schemaName)")
            #expect(schema?["properties"]?.objectValue?.keys.sorted() == request.httpFields.map(\.key).sorted(), "\(request.schemaName)")
            #expect(ViewSchema.bodies[request.schemaName] == request.schema)
        }
    }
}
