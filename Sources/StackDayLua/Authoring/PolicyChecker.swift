import Foundation
import StackDay

/// Checks a policy file: it compiled, its roles have the right shape, and its examples pass.
///
/// Example formats: `{ day = "2026-10-05", due = true, params = {...}, start = "…" }` for a
/// schedule, `{ total = 5, goal = 8, progress = 0.625 }` for progress, and
/// `{ history = "YYN-Y", current = 2, longest = 2 }` for a streak rule.
public struct PolicyChecker {
    public let library: PolicyLibrary

    public init(library: PolicyLibrary) {
        self.library = library
    }

    public func check(_ policy: LoadedPolicy) -> PolicyCheckReport {
        // A schema's mistakes would otherwise pass unseen: an unknown key or type checks nothing.
        var failures: [String] = PolicyParameterSchema.problems(declared: policy.info.schema)
        var passed = 0
        for example in PolicyCase.list(policy.info.examples, origin: .example, file: policy.file, source: policy.source, field: "examples") {
            let location = example.line.map { " (line \($0))" } ?? ""
            do {
                if let failure = try example.run(on: policy) {
                    failures.append("example \(example.number)\(location): \(failure)")
                } else {
                    passed += 1
                }
            } catch {
                failures.append("example \(example.number)\(location): \(error)")
            }
        }
        return PolicyCheckReport(
            policy: policy.name, file: policy.file,
            roles: PolicyRole.allCases.filter(policy.info.roles.contains), examples: policy.info.examples.count, passed: passed, failures: failures
        )
    }
}
