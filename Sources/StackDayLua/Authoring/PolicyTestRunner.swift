import Foundation
import StackDay

/// Runs a policy's cases: its `examples`, its `tests`, and the list a `NAME_test.lua` beside its
/// file returns, in the same sandbox and under the same budgets as every call, with `trace()`
/// writing and, when asked, the lines each case runs marked.
public struct PolicyTestRunner {
    public let library: PolicyLibrary

    public init(library: PolicyLibrary) {
        self.library = library
    }

    /// The test file of a policy file: `NAME_test.lua` in its folder.
    public static func testFile(of file: String) -> URL {
        let url = URL(fileURLWithPath: file)
        return url.deletingLastPathComponent().appendingPathComponent(url.deletingPathExtension().lastPathComponent + "_test.lua")
    }

    /// Runs every case of `policy` (and of `testFile` when it exists). Throws when the test
    /// file does not load or does not return a list of tables (`PolicyError` naming its line).
    public func run(_ policy: LoadedPolicy, testFile: URL? = nil, coverage: Bool = false) throws -> PolicyTestReport {
        var cases = PolicyCase.list(policy.info.examples, origin: .example, file: policy.file, source: policy.source, field: "examples")
            + PolicyCase.list(policy.info.tests, origin: .test, file: policy.file, source: policy.source, field: "tests")
        var readTestFile: String? = nil
        if let testFile, FileManager.default.fileExists(atPath: testFile.path) {
            let source: String
            do { source = try String(contentsOf: testFile, encoding: .utf8) } catch {
                throw PolicyError(policy: policy.name, file: testFile.path, line: nil, kind: .unavailable, message: "cannot read the test file: \(error.localizedDescription)")
            }
            let value = try library.host().data(source: source, file: testFile.path)
            guard case .array(let items) = value, items.allSatisfy({ $0.objectValue != nil }) else {
                throw PolicyError(policy: policy.name, file: testFile.path, line: nil, kind: .script,
                                  message: "a test file must return a list of cases, each a table like an example")
            }
            readTestFile = testFile.path
            cases += PolicyCase.list(items, origin: .test, file: testFile.path, source: source, field: nil)
        }
        let host = try library.host()
        let chunk = coverage ? LoadedPolicy.chunkname(policy.file) : nil
        let (outcomes, _, covered) = host.authoring(tracing: true, covering: chunk) {
            cases.map { testCase -> PolicyTestReport.Outcome in
                let failure: String?
                do { failure = try testCase.run(on: policy) } catch { failure = "\(error)" }
                // A case about no real day writes its trace lines without one.
                let trace = host.takeTrace().map { testCase.isUndated ? PolicyTraceLine(file: $0.file, line: $0.line, day: nil, text: $0.text) : $0 }
                return PolicyTestReport.Outcome(testCase: testCase, failure: failure, trace: trace)
            }
        }
        var coverable: Set<Int>? = nil
        var uncovered: [Int]? = nil
        if coverage {
            let lines = Self.meaningful(try host.lines(of: policy), in: policy.source)
            coverable = lines
            uncovered = lines.subtracting(covered).sorted()
        }
        return PolicyTestReport(policy: policy.name, file: policy.file, testFile: readTestFile, outcomes: outcomes, coverable: coverable, uncovered: uncovered)
    }

    /// `lines` without those that hold only a closing word (`end`, `else`, a brace): the code the
    /// compiler leaves there runs only when control falls through to it, which is no gap in a
    /// policy's tests.
    static func meaningful(_ lines: Set<Int>, in source: String) -> Set<Int> {
        let texts = source.split(separator: "\n", omittingEmptySubsequences: false)
        let closing: Set<String> = ["end", "end,", "end)", "end;", "else", "}", "},", "})", "end),", "end})"]
        return lines.filter { line in
            guard line >= 1, line <= texts.count else { return false }
            let text = texts[line - 1].trimmingCharacters(in: .whitespaces)
            return !closing.contains(text)
        }
    }
}
