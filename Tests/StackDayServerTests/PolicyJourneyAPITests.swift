import Foundation
import Testing
import StackDay
import StackDayLua
import StackDayTestSupport

/// The policy journey over the API, through the server's pipeline in process: the same steps as
/// on the command line, the same figures at the end.
@Suite("policy journey over the API")
struct PolicyJourneyAPITests {
    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// A server at the journey's instant with `read` and its history for `ana`; her token and bob's.
    static func reading(policyFolder: URL? = nil) throws -> (InProcessServer, String, String) {
        let server = try InProcessServer(now: Date(timeIntervalSince1970: PolicyJourney.nowSeconds), policyFolder: policyFolder)
        let ana = try server.user("ana"), bob = try server.user("bob")
        #expect(server.send("POST", "/v1/habits", token: ana, body: #"{"name":"read","start":"\#(PolicyJourney.start)"}"#).status == 201)
        for day in PolicyJourney.metDays {
            #expect(server.send("POST", "/v1/habits/read/records", token: ana, body: #"{"on":"\#(day)"}"#).status == 201)
        }
        return (server, ana, bob)
    }

    /// `read`'s figures as `GET /v1/stats` answers them, without the rules in force.
    static func figures(_ server: InProcessServer, _ token: String) throws -> String {
        var row = try #require((try json(server.send("GET", "/v1/stats", token: token).body)["habits"] as? [[String: Any]])?.first)
        row["rules"] = nil
        return String(decoding: try JSONSerialization.data(withJSONObject: row, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test("install, list, simulate with its trace, apply from a day, explain, roll back: the figures return exactly; bob never sees it")
    func journey() throws {
        let (server, ana, bob) = try Self.reading()
        let before = try Self.figures(server, ana)

        let installed = server.send("PUT", "/v1/policies/two", token: ana, body: PolicyJourney.twoMisses)
        #expect(installed.status == 201, "\(installed.body)")
        let list = try #require(try Self.json(server.send("GET", "/v1/policies", token: ana).body)["policies"] as? [[String: Any]])
        #expect(list.contains { $0["name"] as? String == "two" && $0["source"] as? String == "installed" && $0["inUse"] as? Bool == true })

        let simulated = server.send("POST", "/v1/habits/read/simulate", token: ana, body: #"{"policy":"two","from":"\#(PolicyJourney.from)","trace":true}"#)
        #expect(simulated.status == 200, "\(simulated.body)")
        let simulation = try Self.json(simulated.body)
        let proposed = try #require(simulation["proposed"] as? [String: Any])
        #expect((simulation["trace"] as? [[String: Any]])?.contains { $0["text"] as? String == "forgiven 2026-11-05" } == true, "\(simulated.body)")

        let applied = server.send("PATCH", "/v1/habits/read", token: ana, body: #"{"streak":"two","from":"\#(PolicyJourney.from)"}"#)
        #expect(applied.status == 200, "\(applied.body)")
        let after = try #require((try Self.json(server.send("GET", "/v1/stats", token: ana).body)["habits"] as? [[String: Any]])?.first)
        #expect(after["current"] as? Int == proposed["current"] as? Int && after["longest"] as? Int == proposed["longest"] as? Int)
        #expect(try Self.figures(server, ana) != before)

        let explained = try Self.json(server.send("GET", "/v1/habits/read/explain?from=2026-11-04&to=2026-11-06&trace=true", token: ana).body)
        #expect((explained["trace"] as? [[String: Any]])?.contains { $0["day"] as? String == "2026-11-05" } == true, "\(explained)")

        let rolled = server.send("POST", "/v1/habits/read/rollback", token: ana, body: "{}")
        #expect(rolled.status == 201 && rolled.body.contains(#""takesBack":2"#), "\(rolled.body)")
        #expect(try Self.figures(server, ana) == before)
        let revisions = try #require(try Self.json(server.send("GET", "/v1/habits/read/revisions", token: ana).body)["revisions"] as? [[String: Any]])
        #expect(revisions[1]["takenBackBy"] as? Int == 3 && revisions[2]["takesBack"] as? Int == 2)

        #expect(!server.send("GET", "/v1/policies", token: bob).body.contains(#""name":"two""#))
        #expect(server.send("GET", "/v1/policies/two", token: bob).status == 404)
        let refused = server.send("POST", "/v1/habits", token: bob, body: #"{"name":"walk","streak":"two"}"#)
        #expect(refused.status == 422 && refused.body.contains("no such policy") && !refused.body.contains("/"), "\(refused.body)")
    }

    @Test("shared with bob, the script is bob's to choose: listed as shared by ana, used only once named, and never again once unshared")
    func sharing() throws {
        let (server, ana, bob) = try Self.reading()
        #expect(server.send("PUT", "/v1/policies/two", token: ana, body: PolicyJourney.twoMisses).status == 201)
        #expect(server.send("POST", "/v1/habits", token: bob, body: #"{"name":"walk","start":"2026-11-01"}"#).status == 201)
        let shared = server.send("POST", "/v1/policies/two/shares", token: ana, body: #"{"with":"bob"}"#)
        #expect(shared.status == 201 && shared.body.contains(#""to":"bob""#), "\(shared.body)")
        #expect(server.send("POST", "/v1/policies/two/shares", token: ana, body: #"{"with":"nobody"}"#).status == 404)
        #expect(server.send("POST", "/v1/policies/two/shares", token: ana, body: #"{"with":"ana"}"#).status == 400)
        #expect(server.send("POST", "/v1/policies/nope/shares", token: ana, body: #"{"with":"bob"}"#).status == 404)
        let listed = try #require(try Self.json(server.send("GET", "/v1/policies", token: bob).body)["policies"] as? [[String: Any]])
        #expect(listed.contains { $0["name"] as? String == "two" && $0["source"] as? String == "shared" && $0["sharedBy"] as? String == "ana" })
        // Nothing of bob's changed; once he names it, his habit runs it.
        #expect(server.send("GET", "/v1/habits/walk", token: bob).body.contains(#""name":"strict""#))
        #expect(server.send("PATCH", "/v1/habits/walk", token: bob, body: #"{"streak":"two"}"#).status == 200)
        #expect(server.send("GET", "/v1/habits/walk", token: bob).body.contains(#""name":"two""#))
        #expect(server.send("DELETE", "/v1/policies/two/shares/bob", token: ana).status == 204)
        #expect(server.send("POST", "/v1/habits", token: bob, body: #"{"name":"run","streak":"two"}"#).status == 201,
                "a habit of his already runs it: the pinned copy is his")
        #expect(server.send("DELETE", "/v1/policies/two/shares/bob", token: ana).status == 404)
    }

    @Test("a name resolves on the API wherever it is found: installed, the server's folder, published, built-in", arguments: [
        "installed", "folder", "published", "built-in",
    ])
    func resolution(source: String) throws {
        let folder = try TemporaryFolder()
        let name = source == "built-in" ? "grace" : "rule-\(source)"
        if source == "folder" { try PolicyJourney.twoMisses.write(toFile: folder.path("\(name).lua"), atomically: true, encoding: .utf8) }
        let (server, ana, _) = try Self.reading(policyFolder: folder.url)
        switch source {
        case "installed": #expect(server.send("PUT", "/v1/policies/\(name)", token: ana, body: PolicyJourney.twoMisses).status == 201)
        case "published": try OfferPolicies(context: try server.administrator()).publish(name: name, source: PolicyJourney.twoMisses, to: ["ana"])
        default: break
        }
        let listed = try #require(try Self.json(server.send("GET", "/v1/policies", token: ana).body)["policies"] as? [[String: Any]])
        #expect(listed.contains { $0["name"] as? String == name && $0["source"] as? String == source && $0["inUse"] as? Bool == true }, "\(listed)")
        #expect(server.send("GET", "/v1/policies/\(name)", token: ana).body.contains(#""origin":"\#(source)""#))
        #expect(server.send("POST", "/v1/habits/read/simulate", token: ana, body: #"{"policy":"\#(name)","role":"streak"}"#).status == 200)
        #expect(server.send("PATCH", "/v1/habits/read", token: ana, body: #"{"streak":"\#(name)","from":"\#(PolicyJourney.from)"}"#).status == 200)
        #expect(server.send("POST", "/v1/habits", token: ana, body: #"{"name":"walk","streak":"\#(name)"}"#).status == 201)
        #expect(server.send("GET", "/v1/habits/read/explain", token: ana).status == 200)
    }
}
