import Foundation
import Testing
import StackDayTestSupport

/// Groups over the API, walked as a client would: habits and their records, a rule of the user's
/// own installed, a routine made of them, its figures in today, stats and its own page, a change
/// of members from a day, a rollback and a removal; another user sees none of it, and refusals
/// are JSON errors that write nothing.
@Suite("groups over the API")
struct GroupAPITests {
    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    static func group(_ name: String, in body: String) throws -> [String: Any] {
        let groups = try #require(try json(body)["groups"] as? [[String: Any]], "\(body)")
        return try #require(groups.first { $0["name"] as? String == name }, "\(body)")
    }

    static let weighted = """
    return {
      params = { weights = {} },
      group = function(members, params)
        local sum = 0
        for _, m in ipairs(members) do sum = sum + (params.weights[m.name] or 0) * m.progress end
        return sum
      end,
    }
    """

    /// A server whose today is 2026-10-11 (Seoul) with ana's water and stretch since 10-01, both
    /// done 10-05…10-10, and water alone on 10-04; her token and bob's.
    static func server() throws -> (InProcessServer, String, String) {
        let server = try InProcessServer()
        let ana = try server.user("ana"), bob = try server.user("bob")
        for name in ["water", "stretch"] {
            #expect(server.send("POST", "/v1/habits", token: ana, body: #"{"name":"\#(name)","start":"2026-10-01"}"#).status == 201)
            for day in 5...10 {
                #expect(server.send("POST", "/v1/habits/\(name)/records", token: ana, body: #"{"on":"2026-10-\#(String(format: "%02d", day))"}"#).status == 201)
            }
        }
        #expect(server.send("POST", "/v1/habits/water/records", token: ana, body: #"{"on":"2026-10-04"}"#).status == 201)
        return (server, ana, bob)
    }

    @Test("make, read in today, stats and its own page, change from a day, take back, remove: the figures at each step")
    func journey() throws {
        let (server, ana, bob) = try Self.server()
        let made = server.send("POST", "/v1/groups", token: ana, body: #"{"name":"morning","members":["water","stretch"]}"#)
        #expect(made.status == 201 && made.headers["location"] == "/v1/groups/morning", "\(made.body)")
        #expect(try Self.json(made.body)["members"] as? [String] == ["water", "stretch"])

        // All of both: 10-05…10-10 done (a streak of 6), 10-01…10-04 missed; today pending.
        var morning = try Self.group("morning", in: server.send("GET", "/v1/today", token: ana).body)
        #expect(morning["state"] as? String == "pending" && morning["current"] as? Int == 6 && morning["longest"] as? Int == 6, "\(morning)")
        #expect(server.send("POST", "/v1/habits/water/records", token: ana, body: "{}").status == 201)
        morning = try Self.group("morning", in: server.send("GET", "/v1/today", token: ana).body)
        #expect(morning["done"] as? Int == 1 && abs((morning["progress"] as? Double ?? 0) - 0.5) < 1e-9, "\(morning)")

        // From 10-04, half the weight on water is enough: 10-04 and today are done, the days before keep theirs.
        #expect(server.send("PUT", "/v1/policies/weighted", token: ana, body: Self.weighted).status == 201)
        // Tried first on the real history: what the change would make, nothing written.
        let listedBefore = server.send("GET", "/v1/groups", token: ana).body
        let tried = server.send("POST", "/v1/groups/morning/simulate", token: ana,
                                body: #"{"policy":"weighted","params":{"weights":{"water":1,"stretch":0}},"from":"2026-10-04"}"#)
        #expect(tried.status == 200, "\(tried.body)")
        let simulation = try Self.json(tried.body)
        #expect(simulation["role"] as? String == "group" && simulation["from"] as? String == "2026-10-04", "\(tried.body)")
        #expect((simulation["current"] as? [String: Any])?["current"] as? Int == 6 && (simulation["proposed"] as? [String: Any])?["current"] as? Int == 8, "\(tried.body)")
        #expect(server.send("GET", "/v1/groups", token: ana).body == listedBefore)
        #expect(server.send("POST", "/v1/groups/morning/simulate", token: ana, body: #"{"policy":"goal"}"#).status == 400)
        #expect(server.send("POST", "/v1/groups/morning/simulate", token: bob, body: #"{"policy":"any"}"#).status == 404)
        let edited = server.send("PATCH", "/v1/groups/morning", token: ana,
                                 body: #"{"rule":"weighted","ruleParams":{"weights":{"water":1,"stretch":0}},"from":"2026-10-04"}"#)
        #expect(edited.status == 200, "\(edited.body)")
        let shown = server.send("GET", "/v1/groups/morning", token: ana)
        #expect(shown.status == 200, "\(shown.body)")
        let detail = try Self.json(shown.body)
        #expect((detail["revisions"] as? [[String: Any]])?.map { $0["from"] as? String } == ["2026-10-01", "2026-10-04"])
        let today = try #require(detail["today"] as? [String: Any])
        #expect(today["state"] as? String == "completed" && today["current"] as? Int == 8, "\(today)")
        let explained = try Self.json(server.send("GET", "/v1/groups/morning/explain?from=2026-10-04&to=2026-10-04", token: ana).body)
        let step = try #require((explained["steps"] as? [[String: Any]])?.first, "\(explained)")
        #expect(step["revision"] as? Int == 2 && step["rule"] as? String == "weighted" && step["state"] as? String == "completed", "\(step)")
        let calendar = try Self.json(server.send("GET", "/v1/groups/morning/calendar?from=2026-10-03&to=2026-10-04", token: ana).body)
        #expect((calendar["days"] as? [[String: Any]])?.map { $0["state"] as? String } == ["missed", "completed"], "\(calendar)")
        let stats = try Self.group("morning", in: server.send("GET", "/v1/stats", token: ana).body)
        #expect(stats["longest"] as? Int == 8 && stats["rule"] as? String == "weighted", "\(stats)")

        let rolled = server.send("POST", "/v1/groups/morning/rollback", token: ana, body: "{}")
        let rule = try Self.json(rolled.body)["rule"] as? [String: Any]
        #expect(rolled.status == 200 && rule?["name"] as? String == "all", "\(rolled.body)")
        morning = try Self.group("morning", in: server.send("GET", "/v1/today", token: ana).body)
        #expect(morning["state"] as? String == "pending" && morning["longest"] as? Int == 6, "\(morning)")

        // Done all: stretch, the one member still open, recorded; the group done today.
        let done = server.send("POST", "/v1/groups/morning/done", token: ana)
        #expect(done.status == 200, "\(done.body)")
        let doneToday = try #require(try Self.json(done.body)["today"] as? [String: Any])
        #expect(doneToday["state"] as? String == "completed" && doneToday["done"] as? Int == 2 && doneToday["current"] as? Int == 7, "\(doneToday)")
        #expect(server.send("POST", "/v1/groups/morning/done", token: bob).status == 404)
        #expect(server.send("GET", "/v1/groups/morning", token: bob).status == 404)
        #expect(!server.send("GET", "/v1/today", token: bob).body.contains("morning"))
        #expect(server.send("PATCH", "/v1/groups/morning", token: ana, body: #"{"name":"dawn"}"#).status == 200)
        let listed = try #require(try Self.json(server.send("GET", "/v1/groups", token: ana).body)["groups"] as? [[String: Any]])
        #expect(listed.map { $0["name"] as? String } == ["dawn"])
        #expect(server.send("DELETE", "/v1/groups/dawn", token: ana).status == 204)
        #expect(server.send("GET", "/v1/groups/dawn", token: ana).status == 404)
        let habits = try #require(try Self.json(server.send("GET", "/v1/today", token: ana).body)["habits"] as? [Any])
        #expect(habits.count == 2)
    }

    @Test("refusals are one JSON error with a code and write nothing", arguments: [
        ("POST", "/v1/groups", #"{"name":"x","members":["watr"]}"#, 404, "habit_not_found"),
        ("POST", "/v1/groups", #"{"name":"x"}"#, 400, "bad_request"),
        ("POST", "/v1/groups", #"{"name":"x","members":["water"],"colour":"red"}"#, 400, "bad_request"),
        ("POST", "/v1/groups", #"{"name":"same","members":["water"]}"#, 409, "duplicate_name"),
        ("POST", "/v1/groups", #"{"name":"x","members":["water"],"rule":"goal"}"#, 422, "policy_failed"),
        ("POST", "/v1/groups", #"{"name":"x","members":["water"],"rule":"at-least","ruleParams":{"count":0}}"#, 400, "invalid_parameter"),
        ("PATCH", "/v1/groups/same", "{}", 400, "bad_request"),
        ("PATCH", "/v1/groups/nope", #"{"members":["water"]}"#, 404, "group_not_found"),
        ("POST", "/v1/groups/same/rollback", "{}", 400, "invalid_input"),
        ("DELETE", "/v1/groups/nope", nil, 404, "group_not_found"),
    ] as [(String, String, String?, Int, String)])
    func refusals(method: String, path: String, body: String?, status: Int, code: String) throws {
        let (server, ana, _) = try Self.server()
        #expect(server.send("POST", "/v1/groups", token: ana, body: #"{"name":"same","members":["water","stretch"]}"#).status == 201)
        let before = server.send("GET", "/v1/groups", token: ana).body
        let refused = server.send(method, path, token: ana, body: body)
        let error = try #require(try Self.json(refused.body)["error"] as? [String: Any], "\(refused.body)")
        #expect(refused.status == status && error["code"] as? String == code, "\(refused.status) \(refused.body)")
        #expect(!(error["message"] as? String ?? "").contains("/tmp"), "\(refused.body)")
        #expect(server.send("GET", "/v1/groups", token: ana).body == before)
    }
}
