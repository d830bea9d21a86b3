import Foundation
import Testing
import StackDay
import StackDayLua

@Suite("Policy library")
struct LibraryTests {
    @Test("a user file overrides a built-in of the same name")
    func override() throws {
        let fixture = try PolicyFixture(["daily": schedule("return day.weekday == 1")])
        #expect(try fixture.isDue("daily", on: "2026-10-06") == false)
        #expect(fixture.library.folder(of: "daily")?.standardizedFileURL.path == fixture.folder.url.standardizedFileURL.path)
        #expect(fixture.library.folder(of: "weekly")?.standardizedFileURL.path == builtInPolicies.standardizedFileURL.path)
    }

    @Test("an edited or new file is picked up without restarting")
    func reload() throws {
        let fixture = try PolicyFixture(["changing": schedule("return true")])
        #expect(try fixture.isDue("changing"))
        try fixture.write("changing", schedule("return false -- edited"))
        #expect(try fixture.isDue("changing") == false)
        #expect(throws: PolicyError.self) { try fixture.isDue("later") }
        try fixture.write("later", schedule("return true"))
        #expect(try fixture.isDue("later"))
    }

    @Test("a file saved again with the same source compiles nothing; a changed source compiles anew")
    func cachedBySourceHash() throws {
        let source = schedule("return true")
        let fixture = try PolicyFixture(["same": source])
        let first = try fixture.library.policy(named: "same")
        #expect(first.sha256 == SHA256(of: source))
        // Rewritten with the same text (a new modification time): the compiled chunk is kept.
        Thread.sleep(forTimeInterval: 0.01)
        try fixture.write("same", source)
        #expect(try fixture.library.policy(named: "same") === first)
        try fixture.write("same", source + "-- changed\n")
        let second = try fixture.library.policy(named: "same")
        #expect(second !== first)
        #expect(second.sha256 == SHA256(of: source + "-- changed\n"))
        // Built-ins are known by their hash too.
        let daily = try fixture.library.policy(named: "weekly")
        #expect(daily.sha256 == SHA256(of: try String(contentsOf: builtInPolicies.appendingPathComponent("weekly.lua"), encoding: .utf8)))
    }

    @Test("an unknown name is an error listing the known ones")
    func unknown() throws {
        let fixture = try PolicyFixture()
        do {
            _ = try fixture.library.policy(named: "fortnightly")
            Issue.record("expected an error")
        } catch let error as PolicyError {
            #expect(error.kind == .unavailable)
            #expect(error.message.contains("daily, every-n-days, freeze"))
        }
    }

    @Test("a policy that cannot serve a role is refused when the habit is created")
    func wrongRole() throws {
        let fixture = try PolicyFixture()
        let habit = try Habit(name: "run", startedOn: day("2026-10-01"), createdAt: Date(), schedule: PolicyChoice(name: "strict"))
        #expect(throws: PolicyError.self) { try fixture.library.policies(for: habit, revision: habit.latest, scripts: InMemoryPolicyScriptRepository()) }
    }

    @Test("bad parameters are refused at binding, naming the problem", arguments: [
        ("weekly", #"{"days":["funday"]}"#, "'funday' is not a weekday"),
        ("weekly", #"{"days":[]}"#, "non-empty list"),
        ("every-n-days", #"{"every":0}"#, "every must be a whole number"),
        ("every-n-days", #"{"every":1.5}"#, "every must be a whole number"),
        ("monthly-day", #"{"day":32}"#, "day must be a whole number from 1 to 31"),
        ("monthly-day", #"{"day":31,"shortMonth":"move"}"#, "shortMonth must be"),
        ("monthly-nth-weekday", #"{"nth":6,"weekday":"tue"}"#, "nth must be"),
        ("grace", #"{"per":0}"#, "per must be"),
        ("freeze", #"{"earnEvery":"weekly"}"#, "earnEvery must be"),
        ("at-most", #"{"limit":-1}"#, "limit must be"),
    ])
    func badParameters(policy: String, json: String, message: String) throws {
        let fixture = try PolicyFixture()
        let choice = try PolicyChoice(name: policy, parametersJSON: json)
        do {
            _ = try fixture.library.policy(named: policy).bind(parameters: choice.parameters, startedOn: day("2026-10-01"), goal: 1, unit: "")
            Issue.record("expected \(policy) to refuse \(json)")
        } catch let error as PolicyError {
            #expect(error.kind == .parameters)
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test("parameters merge over the declared defaults")
    func defaults() throws {
        let fixture = try PolicyFixture()
        let binding = try fixture.library.policy(named: "monthly-day").bind(parameters: ["day": .number(31)], startedOn: day("2026-10-01"), goal: 1, unit: "")
        #expect(try binding.parametersJSON() == #"{"day":31,"shortMonth":"skip"}"#)
    }

    @Test("parameters with awkward strings reach Lua intact")
    func awkwardStrings() throws {
        let fixture = try PolicyFixture(["echo": "return { params = { text = '' }, validate = function(p) if p.text ~= 'a\"b\\\\c]]\\n\\0x1ü' then error('got ' .. p.text, 0) end end, isDue = function() return true end }"])
        let policy = try fixture.library.policy(named: "echo")
        _ = try policy.bind(parameters: ["text": .string("a\"b\\c]]\n\u{0}x1ü")], startedOn: day("2026-10-01"), goal: 1, unit: "")
    }
}

@Suite("the user's policy folder")
struct PolicyFolderTests {
    @Test(arguments: [
        (["STACKDAY_POLICIES": "/p", "XDG_CONFIG_HOME": "/x", "HOME": "/h"], "/p"),
        (["XDG_CONFIG_HOME": "/x", "HOME": "/h"], "/x/stackday/policies"),
        (["XDG_CONFIG_HOME": "relative", "HOME": "/h"], "/h/.config/stackday/policies"),
        (["STACKDAY_POLICIES": "", "HOME": "/h"], "/h/.config/stackday/policies"),
    ])
    func resolution(environment: [String: String], expected: String) {
        #expect(PolicyLibrary.userFolder(environment: environment).path == expected)
    }

    @Test("no such policy names the folders it searched")
    func searched() throws {
        let library = try PolicyLibrary(searchPath: [URL(fileURLWithPath: "/nowhere/policies")])
        let error = try #require(policyError { _ = try library.policy(named: "missing") })
        #expect(error.message.contains("searched /nowhere/policies, then the built-in policies"), "\(error.message)")
    }
}
