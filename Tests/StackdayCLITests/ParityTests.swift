import Foundation
import Testing
import StackDayTestSupport

/// The command line and the API over the same application layer: the same requests, made one
/// way on one store and the other way on another, answer byte-identical JSON and leave identical
/// stores.
@Suite("parity: the command line and the API answer alike")
struct ParityTests {
    /// One request both ways: the command's arguments (run with `--json`), and the HTTP request.
    struct Request: CustomStringConvertible {
        let command: [String]
        let method: String
        let path: String
        let body: String?
        /// The HTTP status of a success (a failure is compared by its error body, whatever the status).
        var status = 200
        /// The request is refused (by both).
        var fails = false

        var description: String { command.joined(separator: " ") }
    }

    static let requests: [Request] = [
        Request(command: ["habit", "add", "water", "--goal", "8", "--unit", "cups", "--start", "2026-10-01"], method: "POST", path: "/v1/habits",
                body: #"{"name":"water","goal":8,"unit":"cups","start":"2026-10-01"}"#, status: 201),
        Request(command: ["habit", "add", "gym", "--schedule", "times-per-week", "--schedule-params", #"{"times":3}"#, "--start", "2026-10-04"],
                method: "POST", path: "/v1/habits", body: #"{"name":"gym","schedule":"times-per-week","scheduleParams":{"times":3},"start":"2026-10-04"}"#, status: 201),
        Request(command: ["habit", "add", "read", "--schedule", "mon wed fri", "--streak", "grace", "--start", "2026-10-01"],
                method: "POST", path: "/v1/habits", body: #"{"name":"read","schedule":"mon wed fri","streak":"grace","start":"2026-10-01"}"#, status: 201),
        Request(command: ["habit", "add", "물 마시기", "--streak-params", #"{"x":1}"#], method: "POST", path: "/v1/habits",
                body: #"{"name":"물 마시기","streakParams":{"x":1}}"#, fails: true),
        Request(command: ["record", "water", "5", "--on", "2026-10-10"], method: "POST", path: "/v1/habits/water/records",
                body: #"{"amount":5,"on":"2026-10-10"}"#, status: 201),
        Request(command: ["record", "water", "8", "--on", "2026-10-09"], method: "POST", path: "/v1/habits/water/records",
                body: #"{"amount":8,"on":"2026-10-09"}"#, status: 201),
        Request(command: ["record", "water", "3", "--at", "2026-10-11T08:00:00+09:00"], method: "POST", path: "/v1/habits/water/records",
                body: #"{"amount":3,"at":"2026-10-11T08:00:00+09:00"}"#, status: 201),
        Request(command: ["record", "gym", "--on", "2026-10-06"], method: "POST", path: "/v1/habits/gym/records", body: #"{"on":"2026-10-06"}"#, status: 201),
        Request(command: ["record", "gym", "--on", "2026-10-08"], method: "POST", path: "/v1/habits/gym/records", body: #"{"on":"2026-10-08"}"#, status: 201),
        Request(command: ["record", "read", "--on", "2026-10-09"], method: "POST", path: "/v1/habits/read/records", body: #"{"on":"2026-10-09"}"#, status: 201),
        Request(command: ["undo", "water", "--on", "2026-10-10"], method: "DELETE", path: "/v1/habits/water/records/latest?on=2026-10-10", body: nil),
        Request(command: ["skip", "read", "--from", "2026-10-05", "--to", "2026-10-06"], method: "POST", path: "/v1/habits/read/skips",
                body: #"{"from":"2026-10-05","to":"2026-10-06"}"#, status: 201),
        Request(command: ["today"], method: "GET", path: "/v1/today", body: nil),
        Request(command: ["stats"], method: "GET", path: "/v1/stats", body: nil),
        Request(command: ["stats", "gym"], method: "GET", path: "/v1/stats?habit=gym", body: nil),
        Request(command: ["habit", "show", "gym"], method: "GET", path: "/v1/habits/gym", body: nil),
        Request(command: ["habit", "list"], method: "GET", path: "/v1/habits", body: nil),
        Request(command: ["calendar", "water", "--from", "2026-10-01"], method: "GET", path: "/v1/calendar/water?from=2026-10-01", body: nil),
        Request(command: ["report", "week", "--week-of", "2026-10-07"], method: "GET", path: "/v1/report/week?weekOf=2026-10-07&format=json", body: nil),
        Request(command: ["habit", "edit", "read", "--goal", "2", "--from", "2026-10-08"], method: "PATCH", path: "/v1/habits/read",
                body: #"{"goal":2,"from":"2026-10-08"}"#),
        // Parameters without a policy are for the policy the habit runs.
        Request(command: ["habit", "edit", "read", "--schedule-params", #"{"days":["tue","fri"]}"#, "--from", "2026-10-09"], method: "PATCH",
                path: "/v1/habits/read", body: #"{"scheduleParams":{"days":["tue","fri"]},"from":"2026-10-09"}"#),
        Request(command: ["habit", "edit", "read", "--schedule-params", #"{"day":["tue"]}"#], method: "PATCH", path: "/v1/habits/read",
                body: #"{"scheduleParams":{"day":["tue"]}}"#, fails: true),
        Request(command: ["policy", "history", "read"], method: "GET", path: "/v1/habits/read/revisions", body: nil),
        Request(command: ["policy", "rollback", "read", "--to", "1", "--from", "2026-10-10"], method: "POST", path: "/v1/habits/read/rollback",
                body: #"{"to":1,"from":"2026-10-10"}"#, status: 201),
        Request(command: ["policy", "simulate", "grace", "--habit", "water", "--params", #"{"misses":2}"#], method: "POST",
                path: "/v1/habits/water/simulate", body: #"{"policy":"grace","params":{"misses":2}}"#),
        Request(command: ["habit", "archive", "read", "--on", "2026-10-10"], method: "POST", path: "/v1/habits/read/archive", body: #"{"on":"2026-10-10"}"#),
        Request(command: ["stats", "read"], method: "GET", path: "/v1/stats?habit=read", body: nil),
        Request(command: ["habit", "unarchive", "read"], method: "POST", path: "/v1/habits/read/unarchive", body: nil),
        Request(command: ["habit", "rename", "gym", "Gym Days"], method: "PATCH", path: "/v1/habits/gym", body: #"{"name":"Gym Days"}"#),
        Request(command: ["record", "nothing", "3"], method: "POST", path: "/v1/habits/nothing/records", body: #"{"amount":3}"#, fails: true),
        Request(command: ["record", "water", "--on", "2026-10-12"], method: "POST", path: "/v1/habits/water/records", body: #"{"on":"2026-10-12"}"#, fails: true),
        Request(command: ["habit", "add", "WATER"], method: "POST", path: "/v1/habits", body: #"{"name":"WATER"}"#, fails: true),
        Request(command: ["today"], method: "GET", path: "/v1/today", body: nil),
    ]

    /// UUIDs replaced by their order of first appearance in one transcript: the two stores make
    /// their own random ids, and everything else must match byte for byte.
    final class IDs {
        var seen: [String: Int] = [:]
        let pattern = try! NSRegularExpression(pattern: "[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}")

        func normalized(_ text: String) -> String {
            var result = ""
            var last = text.startIndex
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let range = Range(match.range, in: text)!
                let id = String(text[range])
                if seen[id] == nil { seen[id] = seen.count + 1 }
                result += text[last..<range.lowerBound] + "id-\(seen[id]!)"
                last = range.upperBound
            }
            return result + text[last...]
        }
    }

    @Test("33 requests through `stackday --json` and through HTTP: byte-identical JSON, the same errors, and identical exports")
    func parity() throws {
        #expect(Self.requests.count == 33)
        let (served, server, ana, _) = try ServeCommandTests().serve()
        defer { server.stop() }
        let cli = try CLIFixture(now: ServeCommandTests.now)
        #expect(try cli.run(["user", "add", "ana"]).status == 0)
        let client = server.client
        let (cliIDs, apiIDs) = (IDs(), IDs())
        for request in Self.requests {
            let printed = try cli.run(["--user", "ana", "--json"] + request.command)
            let answer = try client.send(request.method, request.path, token: ana, body: request.body)
            #expect((printed.status != 0) == request.fails, "\(request): exit \(printed.status) \(printed.stderr)")
            if printed.status == 0 {
                #expect(answer.status == request.status, "\(request): HTTP \(answer.status) \(answer.body)")
                #expect(cliIDs.normalized(printed.stdout) == apiIDs.normalized(answer.body), "\(request)")
            } else {
                // A failure: the error body is what `--json` printed on stderr.
                #expect(answer.status >= 400, "\(request): HTTP \(answer.status), the CLI failed with \(printed.stderr)")
                #expect(printed.stderr.hasPrefix(#"{"error":{"code":""#), "\(request): \(printed.stderr)")
                #expect(cliIDs.normalized(printed.stderr) == apiIDs.normalized(answer.body), "\(request)")
            }
        }
        let exported = try cli.run(["--user", "ana", "export", "--format", "json"])
        let exportedThere = try served.run(["--user", "ana", "export", "--format", "json"])
        #expect(exported.status == 0 && exportedThere.status == 0)
        #expect(cliIDs.normalized(exported.stdout) == apiIDs.normalized(exportedThere.stdout))
        #expect(exported.stdout.contains("Gym Days") && exported.stdout.contains(#""days":["tue","fri"]"#))
    }
}
