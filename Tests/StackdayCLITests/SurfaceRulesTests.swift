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
            let habit = object?["habit"] as? [String: Any] ?? object ?? [:]
            return ((habit["schedule"] as? [String: Any])?["sha256"] as? String) ?? "none in \(shown.prefix(300))"
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
}
