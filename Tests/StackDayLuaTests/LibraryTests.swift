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
        #expect(throws: UseCaseError.self) { try fixture.isDue("later") }
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

    @Test("an unknown name is the one refusal of an unknown policy, with the closest known name")
    func unknown() throws {
        let fixture = try PolicyFixture()
        #expect(throws: UseCaseError.policyNotFound(name: "fortnight", suggestion: nil)) { _ = try fixture.library.policy(named: "fortnight") }
        #expect(throws: UseCaseError.policyNotFound(name: "weekl", suggestion: "weekly")) { _ = try fixture.library.policy(named: "weekl") }
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

    @Test("no such policy never names a folder: a server's path is nobody's business")
    func searched() throws {
        let library = try PolicyLibrary(searchPath: [URL(fileURLWithPath: "/nowhere/policies")])
        do {
            _ = try library.policy(named: "missing")
            Issue.record("expected an error")
        } catch {
            #expect(!"\(error)".contains("/nowhere"), "\(error)")
            #expect("\(error)".hasPrefix("no such policy: missing"), "\(error)")
        }
    }
}

@Suite("parameter schemas")
struct ParameterSchemaTests {
    @Test("every built-in declares its schema, its examples pass it, and it is a closed JSON Schema object",
          arguments: PolicyLibrary.builtInSources.keys.sorted())
    func builtIn(name: String) throws {
        let source = try #require(PolicyLibrary.builtInSources[name])
        #expect(source.contains("\n  schema = "), "\(name) declares no schema table")
        let library = try PolicyLibrary(searchPath: [])
        let info = try library.policy(named: name).info
        let schema = info.parameterSchema
        #expect(Set(schema.parameters.map(\.name)) == Set(info.defaults.keys).union(info.schema.keys))
        for parameter in schema.parameters {
            #expect(parameter.kind != nil, "\(name).\(parameter.name) has no type")
            #expect(!parameter.description.isEmpty, "\(name).\(parameter.name) has no description")
        }
        for example in info.examples {
            if let params = example.objectValue?["params"]?.objectValue { try schema.check(params, policy: name) }
        }
        // The defaults with each required parameter's example pass; a required one says what to give.
        var filled = info.defaults
        for parameter in schema.parameters where parameter.required {
            guard let example = parameter.example else { Issue.record("\(name).\(parameter.name) is required but has no example"); continue }
            filled[parameter.name] = example
        }
        try schema.check(filled, policy: name)
        let json = try #require(schema.jsonSchema.objectValue)
        #expect(json["type"] == .string("object") && json["additionalProperties"] == .bool(false))
        #expect(json["properties"]?.objectValue?.count == schema.parameters.count)
    }

    @Test("unknown, missing, mistyped and out-of-range parameters are refused, naming what is wrong", arguments: [
        ("weekly", #"{"day":["mon"]}"#, "unknown parameter 'day' for weekly; did you mean 'days'?"),
        ("weekly", #"{"colour":"red"}"#, "unknown parameter 'colour' for weekly; it takes days"),
        ("daily", #"{"every":2}"#, "unknown parameter 'every' for daily; it takes no parameters"),
        ("weekly", #"{"days":"mon"}"#, "'days' must be a list, not the string \"mon\""),
        ("weekly", #"{"days":[]}"#, "needs at least 1 item"),
        ("weekly", #"{"days":["mon",3]}"#, "'days' item 2 must be a string, not the number 3"),
        ("every-n-days", #"{"every":1.5}"#, "'every' must be a whole number, not the fraction 1.5"),
        ("every-n-days", #"{"every":0}"#, "'every' must be at least 1, not 0"),
        ("times-per-week", #"{"times":8}"#, "'times' must be at most 7, not 8"),
        ("monthly-day", #"{"day":1,"shortMonth":"next"}"#, "'shortMonth' must be one of \"skip\", \"last\", not \"next\""),
        ("grace", #"{"misses":true}"#, "'misses' must be a whole number, not a boolean"),
    ])
    func refused(policy: String, params: String, message: String) throws {
        let library = try PolicyLibrary(searchPath: [])
        let schema = try library.policy(named: policy).info.parameterSchema
        let given = try #require(try JSONValue(parsing: params).objectValue)
        do {
            try schema.check(given, policy: policy)
            Issue.record("accepted \(params)")
        } catch {
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test("a declared schema can require a parameter that has no default")
    func required() throws {
        let fixture = try PolicyFixture(["needs": """
            return { schema = { target = { type = "integer", required = true, description = "the target" } },
                     isDue = function(day, params) return params.target > 0 end }
            """])
        let schema = try fixture.library.policy(named: "needs").info.parameterSchema
        #expect(throws: PolicyParameterError.missing(policy: "needs", name: "target", description: "the target")) { try schema.check([:], policy: "needs") }
        try schema.check(["target": .number(3)], policy: "needs")
        #expect(schema.jsonSchema.objectValue?["required"] == .array([.string("target")]))
    }

    @Test("did you mean: close names only", arguments: [
        ("day", ["days"], "days"), ("dyas", ["days"], "days"), ("earn", ["earnEvery", "max"], "earnEvery"), ("mx", ["earnEvery", "max"], "max"),
        ("colour", ["days"], nil), ("x", ["times", "days"], nil),
    ] as [(String, [String], String?)])
    func suggestion(name: String, known: [String], expected: String?) {
        #expect(PolicyParameterSchema.suggestion(for: name, among: known) == expected)
    }
}
