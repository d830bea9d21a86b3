import Foundation
import Testing
import StackDayTestSupport

/// Rules that every surface must apply the same way, tried through the command line and the API.
@Suite("surfaces: one rule, every caller")
struct SurfaceRulesTests {
    @Test("any habit name works in a path: slashes, percent signs, spaces, Korean, and names that look like endpoints", arguments: [
        "a/b", "x/records", "100%", "morning run", "물 마시기", "..", "a?b=c", "#1",
    ])
    func namesInPaths(name: String) throws {
        let (_, server, ana, _) = try ServeCommandTests().serve()
        defer { server.stop() }
        let client = server.client
        let escaped = name.replacingOccurrences(of: "\"", with: "\\\"")
        #expect(try client.send("POST", "/v1/habits", token: ana, body: #"{"name":"\#(escaped)","start":"2026-10-01"}"#).status == 201)
        let path = "/v1/habits/" + name.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let shown = try client.send("GET", path, token: ana)
        #expect(shown.status == 200 && shown.body.contains(#""name":"\#(escaped)""#), "\(path): \(shown.status) \(shown.body.prefix(200))")
        #expect(try client.send("POST", path + "/records", token: ana, body: #"{"amount":1}"#).status == 201)
        #expect(try client.send("DELETE", path + "/records/latest", token: ana).status == 200)
        #expect(try client.send("DELETE", path, token: ana).status == 204)
    }

    @Test("after the policy file changes, naming the same policy keeps the habit's pinned script, from the CLI and from the API alike")
    func pinKept() throws {
        let (cli, server, ana, _) = try ServeCommandTests().serve()
        defer { server.stop() }
        let client = server.client
        try cli.writePolicy("mine", "return { isDue = function(day) return day.weekday <= 5 end }")
        for name in ["api", "cli"] {
            #expect(try client.send("POST", "/v1/habits", token: ana, body: #"{"name":"\#(name)","start":"2026-10-01","schedule":"mine"}"#).status == 201)
        }
        func pin(_ name: String) throws -> String {
            let shown = try cli.run(["--user", "ana", "habit", "show", name, "--json"]).stdout
            let object = try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any]
            let rules = object?["rules"] as? [String: Any] ?? [:]
            return ((rules["schedule"] as? [String: Any])?["sha256"] as? String) ?? "none in \(shown.prefix(300))"
        }
        let before = try pin("api")
        #expect(try pin("cli") == before)
        try cli.writePolicy("mine", "return { isDue = function(day) return day.weekday <= 4 end }")
        let patched = try client.send("PATCH", "/v1/habits/api", token: ana, body: #"{"schedule":"mine","scheduleParams":{},"from":"2026-10-05"}"#)
        #expect(patched.status == 200, "\(patched.body)")
        let edited = try cli.run(["--user", "ana", "habit", "edit", "cli", "--schedule", "mine", "--schedule-params", "{}", "--from", "2026-10-05"])
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(try pin("api") == before)
        #expect(try pin("cli") == before)
    }

    @Test("a misspelled parameter is refused with a 'did you mean' on create, edit, simulate and preview, through the CLI (exit 1) and the API (400), and nothing is written", arguments: [
        (#"{"day":["mon"]}"#, "unknown parameter 'day' for weekly; did you mean 'days'?"),
        (#"{"days":"mon"}"#, "'days' must be a list"),
    ])
    func parameters(params: String, message: String) throws {
        let (cli, server, ana, _) = try ServeCommandTests().serve()
        defer { server.stop() }
        let client = server.client
        #expect(try client.send("POST", "/v1/habits", token: ana, body: #"{"name":"gym","start":"2026-10-01"}"#).status == 201)
        let before = try cli.run(["--user", "ana", "export", "--format", "json"]).stdout
        let commands: [[String]] = [
            ["habit", "add", "run", "--schedule", "weekly", "--schedule-params", params],
            ["habit", "edit", "gym", "--schedule", "weekly", "--schedule-params", params],
            ["policy", "simulate", "weekly", "--habit", "gym", "--role", "schedule", "--params", params],
            ["policy", "preview", "weekly", "--params", params, "--from", "2026-10-01", "--to", "2026-10-07"],
        ]
        for command in commands {
            let result = try cli.run(["--user", "ana"] + command)
            #expect(result.status == 1 && result.stderr.contains(message), "\(command): \(result.status) \(result.stderr)")
        }
        let requests: [(String, String, String)] = [
            ("POST", "/v1/habits", #"{"name":"run","schedule":"weekly","scheduleParams":\#(params)}"#),
            ("PATCH", "/v1/habits/gym", #"{"schedule":"weekly","scheduleParams":\#(params)}"#),
            ("POST", "/v1/habits/gym/simulate", #"{"policy":"weekly","role":"schedule","params":\#(params)}"#),
        ]
        for (method, path, body) in requests {
            let answer = try client.send(method, path, token: ana, body: body)
            #expect(answer.status == 400 && answer.body.contains(message.replacingOccurrences(of: "'", with: "'")), "\(method) \(path): \(answer.status) \(answer.body)")
        }
        #expect(try cli.run(["--user", "ana", "export", "--format", "json"]).stdout == before)
    }

    @Test("a revision stored with parameters the schema refuses keeps evaluating; only a new write is checked")
    func storedParametersKeepRunning() throws {
        let cli = try CLIFixture()
        #expect(try cli.run(["habit", "add", "gym", "--schedule", "weekly", "--schedule-params", #"{"days":["mon"]}"#, "--start", "2026-10-01"]).status == 0)
        let exported = try cli.run(["export", "--format", "json"]).stdout
        // An archive from a build whose weekly took another key: the key is kept, and runs.
        let archive = exported.replacingOccurrences(of: #"{"days":["mon"]}"#, with: #"{"days":["mon"],"legacy":true}"#)
        #expect(archive != exported)
        let restored = try CLIFixture()
        let file = restored.folder.path("archive.json")
        try archive.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try restored.run(["import", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try restored.run(["stats", "--json"]).status == 0)
        #expect(try restored.run(["habit", "edit", "gym", "--goal", "2"]).status == 0)
        let refused = try restored.run(["habit", "edit", "gym", "--schedule", "weekly", "--schedule-params", #"{"days":["mon"],"legacy":true}"#])
        #expect(refused.status == 1 && refused.stderr.contains("unknown parameter 'legacy' for weekly"), "\(refused.stderr)")
    }

    @Test("policy show prints the parameters, and --json carries them as JSON Schema")
    func show() throws {
        let cli = try CLIFixture()
        let text = try cli.run(["policy", "show", "grace"]).stdout
        #expect(text.contains("misses") && text.contains("integer") && text.contains("default 1") && text.contains("Misses forgiven"), "\(text)")
        let json = try cli.run(["policy", "show", "grace", "--json"]).stdout
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let schema = try #require(object["paramsSchema"] as? [String: Any])
        #expect(schema["type"] as? String == "object" && schema["additionalProperties"] as? Bool == false)
        let per = (schema["properties"] as? [String: Any])?["per"] as? [String: Any]
        #expect(per?["maximum"] as? Double == 366 && per?["type"] as? String == "integer", "\(json)")
    }

    @Test("a failure has one shape and one code: the API's error body is what `--json` prints on stderr", arguments: [
        (["record", "nothing", "3"], "POST", "/v1/habits/nothing/records", #"{"amount":3}"#, "habit_not_found", 404),
        (["habit", "add", "gym"], "POST", "/v1/habits", #"{"name":"gym"}"#, "duplicate_name", 409),
        (["habit", "add", "run", "--schedule", "weekly", "--schedule-params", #"{"day":["mon"]}"#], "POST", "/v1/habits",
         #"{"name":"run","schedule":"weekly","scheduleParams":{"day":["mon"]}}"#, "invalid_parameter", 400),
        (["report", "week", "--week-of", "9999-12-31"], "GET", "/v1/report/week?weekOf=9999-12-31", nil, "read_out_of_bounds", 400),
        (["habit", "add", "x", "--schedule", "nope"], "POST", "/v1/habits", #"{"name":"x","schedule":"nope"}"#, "policy_failed", 422),
    ] as [([String], String, String, String?, String, Int)])
    func errorShape(command: [String], method: String, path: String, body: String?, code: String, status: Int) throws {
        let (cli, server, ana, _) = try ServeCommandTests().serve()
        defer { server.stop() }
        #expect(try server.client.send("POST", "/v1/habits", token: ana, body: #"{"name":"gym","start":"2026-10-01"}"#).status == 201)
        let printed = try cli.run(["--user", "ana", "--json"] + command)
        #expect(printed.status == 1 && printed.stdout.isEmpty, "\(command): \(printed.status) \(printed.stdout)")
        let answer = try server.client.send(method, path, token: ana, body: body)
        #expect(answer.status == status, "\(path): \(answer.status) \(answer.body)")
        #expect(printed.stderr.hasPrefix(#"{"error":{"code":"\#(code)","message":"#), "\(command): \(printed.stderr)")
        #expect(answer.body.hasPrefix(#"{"error":{"code":"\#(code)","message":"#), "\(path): \(answer.body)")
        if code != "policy_failed" { #expect(printed.stderr == answer.body, "\(command): \(printed.stderr) vs \(answer.body)") }
    }
}
