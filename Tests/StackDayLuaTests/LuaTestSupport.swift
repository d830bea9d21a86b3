import Foundation
import StackDay
import StackDayLua
import StackDayTestSupport

/// The repository's built-in `Policies/` folder.
let builtInPolicies = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Policies")

func day(_ text: String) -> LocalDay {
    do { return try LocalDay(iso: text) } catch { preconditionFailure("bad literal \(text)") }
}

/// A user policy folder with the given files, searched before the built-ins.
final class PolicyFixture {
    let folder: TemporaryFolder
    let library: PolicyLibrary

    init(_ files: [String: String] = [:], budget: PolicyBudget = .standard) throws {
        folder = try TemporaryFolder()
        library = try PolicyLibrary(searchPath: [folder.url, builtInPolicies], budget: budget)
        for (name, source) in files { try write(name, source) }
    }

    func write(_ name: String, _ source: String) throws {
        try source.write(to: folder.url.appendingPathComponent(name + ".lua"), atomically: false, encoding: .utf8)
    }

    /// `isDue` of policy `name` for one day.
    func isDue(_ name: String, on text: String = "2026-10-05", params: [String: JSONValue] = [:], start: String? = nil) throws -> Bool {
        let binding = try library.policy(named: name).bind(parameters: params, startedOn: day(start ?? text), goal: 1, unit: "")
        return try binding.dueDays(LocalDayRange(day(text), day(text)))[0]
    }

    /// The due days of `name` over a range; with `rangeForms` off, from one call a day.
    func dueDays(_ name: String, from: String, to: String, params: [String: JSONValue] = [:], start: String? = nil,
                 rangeForms: Bool = true) throws -> [String] {
        let range = LocalDayRange(day(from), day(to))
        let binding = try library.policy(named: name).bind(parameters: params, startedOn: day(start ?? from), goal: 1, unit: "",
                                                           usesRangeForms: rangeForms)
        return zip(range, try binding.dueDays(range)).filter(\.1).map(\.0.iso)
    }
}

/// The `PolicyError` thrown by `body`, or nil when it returns or throws something else.
func policyError(_ body: () throws -> Void) -> PolicyError? {
    do {
        try body()
        return nil
    } catch {
        return error as? PolicyError
    }
}

/// A schedule policy whose `isDue` body is `body`.
func schedule(_ body: String) -> String {
    "return { isDue = function(day, params, habit)\n\(body)\nend }\n"
}
