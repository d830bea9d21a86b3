import Foundation
import StackDay
import StackDayApplication
import StackDayLua

/// `stackday policy new|test|types`: writing a policy as code is written, with a starter, tests
/// beside it, coverage and editor annotations.
enum PolicyAuthoringCommands {
    static let targets = RequestField<[String]>.arguments("policies", name: "policy", help: "Policy files or names (default: every policy in the policy folder).")
        .argument("policy", optional: true, variadic: true).commandLineOnly
    static let coverage = RequestField<Bool>.flag("coverage", help: "Also print the lines of each policy that no case ran.").commandLineOnly
    static let trace = RequestField<Bool>.flag("trace", help: "Print what every case traced, not only the failing ones'.").commandLineOnly
    static let newName = RequestField<String>.text("name", help: "The new policy's name.").argument("name", optional: false).commandLineOnly
    static let role = RequestField<String>.text("role", help: "What it decides: schedule, progress or streak.", valueName: "role").commandLineOnly
    static let out = RequestField<String>.text("out", help: "Where to write it (default: NAME.lua in the policy folder).", valueName: "file").commandLineOnly

    static var specs: [CommandSpec] {
        [
            CommandSpec(
                name: "new", abstract: "Write a commented starter policy for a role, with examples and tests, that passes policy check.",
                run: new
            ).taking([newName.declaration, role.declaration, out.declaration]),
            CommandSpec(
                name: "test", abstract: "Run each policy's examples, its tests list and NAME_test.lua beside it; exit 1 when a case fails.",
                discussion: """
                A case names its file and line when it fails, with what was expected and what the policy gave, and the lines it
                wrote with trace(). --coverage lists the lines of the policy no case ran. Without arguments, every policy in the
                policy folder is tested.
                """,
                run: test
            ).taking([targets.declaration, coverage.declaration, trace.declaration]),
            CommandSpec(name: "types", abstract: "Print LuaCATS annotations of what a policy sees, for lua-language-server.", run: types),
            CommandSpec(
                name: "publish", abstract: "Make a script available to users of this store (a server's), pinned by its hash like an install.",
                discussion: "Each --user given names a user it is published to; without one, every user (those added later too). The users' habits change only when they name it.",
                run: publish
            ).taking([PolicyVersionCommands.policyArgument.declaration]),
            CommandSpec(
                name: "unpublish", abstract: "Take back a script published to users (every one, or each --user given); habits that run it keep it.",
                run: unpublish
            ).taking([PolicyCommand.name.declaration]),
            CommandSpec(name: "share", abstract: "Share a script you installed with another user, who sees it as shared by you.", run: share)
                .taking([PolicyCommand.name.declaration, ShareRequest.with.declaration]),
            CommandSpec(name: "unshare", abstract: "Stop sharing a script with a user; habits that run it keep it.", run: unshare)
                .taking([PolicyCommand.name.declaration, ShareRequest.with.declaration]),
        ]
    }

    static func publish(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let target = try invocation.required(PolicyVersionCommands.policyArgument)
        let script: PolicyScript
        if CLIEnvironment.isPath(target) {
            guard FileManager.default.fileExists(atPath: target) else { throw CommandFailure("no such file: \(target)") }
            script = try environment.library().script(at: URL(fileURLWithPath: target), at: environment.clock.now)
        } else {
            script = try environment.directory().resolve(target).script
        }
        let users = invocation.globals.users
        let view = try PolicyVersionCommands.refusing(environment) {
            try environment.application().publish(script.name, source: script.source, to: users.isEmpty ? nil : users)
        }
        if environment.printedJSON(view) { return }
        let to = users.isEmpty ? environment.words["every user"] : users.joined(separator: ", ")
        environment.io.print(environment.words.say("published {name} sha256:{hash} to {to}", ("name", script.name), ("hash", script.shortHash), ("to", to)))
    }

    static func unpublish(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let name = try invocation.required(PolicyCommand.name)
        let users = invocation.globals.users
        let removed = try environment.application().unpublish(name, from: users.isEmpty ? nil : users)
        if environment.json { return environment.printJSON(.object(["name": .string(name), "removed": ViewJSON.int(removed)])) }
        environment.io.print(environment.words.say("unpublished {name} ({offers})", ("name", name), ("offers", "\(removed) offer\(removed == 1 ? "" : "s")"),
                                                   ("count", "\(removed)")))
    }

    static func share(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let view = try environment.application().share(invocation.required(PolicyCommand.name), invocation.request())
        if environment.printedJSON(view) { return }
        let offer = view.offer
        environment.io.print(environment.words.say("shared {name} sha256:{hash} with {user}", ("name", offer.name), ("hash", offer.script.shortHash),
                                                   ("user", offer.recipient ?? "")))
    }

    static func unshare(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let name = try invocation.required(PolicyCommand.name), user = try invocation.request(ShareRequest.self).with
        try environment.application().unshare(name, with: user)
        if environment.json { return environment.printJSON(.object(["name": .string(name), "with": .string(user)])) }
        environment.io.print(environment.words.say("stopped sharing {name} with {user}", ("name", name), ("user", user)))
    }

    static func types(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        environment.io.write(PolicyStarter.annotations)
    }

    static func new(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let name = try invocation.required(newName)
        guard PolicyName.isValid(name) else { throw invocation.usage("invalid value for <name>: '\(name)' is not a policy name (\(PolicyName.rule))") }
        guard let roleText = try invocation[role] else { throw invocation.usage("missing value for --role (schedule, progress or streak)") }
        guard let chosen = PolicyRole(rawValue: roleText), let source = PolicyStarter.source(for: chosen, name: name) else {
            throw invocation.usage("invalid value for --role: '\(roleText)' (use schedule, progress or streak)")
        }
        let file = try invocation[out].map { URL(fileURLWithPath: $0) } ?? environment.userPolicyFolder.appendingPathComponent(name + ".lua")
        guard !FileManager.default.fileExists(atPath: file.path) else {
            throw CommandFailure("\(file.path) exists already: choose another name, or --out FILE")
        }
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try source.write(to: file, atomically: true, encoding: .utf8)
        } catch {
            throw CommandFailure("cannot write \(file.path): \(error.localizedDescription)")
        }
        if environment.json {
            return environment.printJSON(.object(["name": .string(name), "role": .string(chosen.rawValue), "file": .string(file.path)]))
        }
        environment.io.print(environment.words.say("wrote a {role} starter to {file}; next: stackday policy test {file}", ("role", environment.words[chosen.rawValue]),
                                                   ("file", file.path)))
    }

    static func test(_ invocation: Invocation) throws {
        let environment = try CLIEnvironment(invocation)
        let library = try environment.library()
        var given = try invocation[targets] ?? []
        if given.isEmpty {
            given = library.folderNames().map { environment.userPolicyFolder.appendingPathComponent($0 + ".lua").path }
            guard !given.isEmpty else {
                throw invocation.usage("nothing to test: give a policy file or name (the policy folder \(environment.userPolicyFolder.path) holds none)")
            }
        }
        let covering = try invocation[coverage] ?? false
        let tracingAll = try invocation[trace] ?? false
        var reports: [JSONValue] = []
        var failed = 0
        for target in given {
            let report: PolicyTestReport
            do {
                let (policy, resolved) = try environment.policy(target)
                // A file given, or a name found in the policy folder, has its tests beside it.
                let file: String? = resolved == nil ? policy.file : resolved?.file
                report = try PolicyTestRunner(library: library).run(policy, testFile: file.map(PolicyTestRunner.testFile(of:)), coverage: covering)
            } catch let error as UsageError {
                throw error
            } catch {
                // A policy that does not load, or a test file that does not: one failure of its own.
                failed += 1
                if environment.json {
                    reports.append(.object(["policy": .string(target), "error": .string("\(error)"), "cases": .number(0), "passed": .number(0)]))
                } else {
                    environment.io.print("FAIL \(target): \(error)")
                }
                continue
            }
            if !report.isSuccess { failed += 1 }
            if environment.json {
                reports.append(json(report))
            } else {
                print(report, environment: environment, tracingAll: tracingAll)
            }
        }
        if environment.json {
            environment.printJSON(.object(["policies": .array(reports), "passed": .bool(failed == 0)]))
        }
        if failed > 0 { throw ExitStatus(code: 1) }
    }

    /// Where a case is written: `file:line`, or the file alone.
    static func location(_ testCase: PolicyCase) -> String {
        testCase.file + (testCase.line.map { ":\($0)" } ?? "")
    }

    static func print(_ report: PolicyTestReport, environment: CLIEnvironment, tracingAll: Bool) {
        let io = environment.io
        let cases = report.outcomes.count
        if report.isSuccess {
            io.print("PASS \(report.policy) (\(report.file)): \(cases) case\(cases == 1 ? "" : "s")")
        } else {
            io.print("FAIL \(report.policy) (\(report.file)): \(report.failures.count) of \(cases) case\(cases == 1 ? "" : "s") failed")
        }
        for outcome in report.outcomes where !outcome.passed || tracingAll {
            if let failure = outcome.failure {
                io.print("  \(location(outcome.testCase)): \(outcome.testCase.name): \(failure)")
            } else {
                io.print("  \(location(outcome.testCase)): \(outcome.testCase.name): passed")
            }
            for line in outcome.trace { io.print("    trace \(line)") }
        }
        if let coverable = report.coverable, let uncovered = report.uncovered {
            let run = coverable.count - uncovered.count
            let share = coverable.isEmpty ? 100 : Int((Double(run) / Double(coverable.count) * 100).rounded(.down))
            io.print("  coverage: \(run) of \(coverable.count) lines (\(share)%)" + (uncovered.isEmpty ? "" : "; not run: " + uncovered.map(String.init).joined(separator: ", ")))
        }
    }

    static func json(_ report: PolicyTestReport) -> JSONValue {
        var object: [String: JSONValue] = [
            "policy": .string(report.policy), "file": .string(report.file), "cases": ViewJSON.int(report.outcomes.count),
            "passed": ViewJSON.int(report.passed),
            "failures": .array(report.failures.map { outcome in
                var failure: [String: JSONValue] = [
                    "case": .string(outcome.testCase.name), "file": .string(outcome.testCase.file), "message": .string(outcome.failure ?? ""),
                    "trace": .array(outcome.trace.map { .string($0.description) }),
                ]
                if let line = outcome.testCase.line { failure["line"] = ViewJSON.int(line) }
                return .object(failure)
            }),
        ]
        if let testFile = report.testFile { object["testFile"] = .string(testFile) }
        if let coverable = report.coverable, let uncovered = report.uncovered {
            object["coverage"] = .object(["lines": ViewJSON.int(coverable.count), "run": ViewJSON.int(coverable.count - uncovered.count),
                                          "notRun": .array(uncovered.map { ViewJSON.int($0) })])
        }
        return .object(object)
    }
}
