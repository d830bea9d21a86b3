import CLuaHost
import Foundation
import StackDay

/// The authoring aids (`trace()`, coverage), off unless a command asks for them.
extension LuaHost {
    /// Runs `body` with `trace()` writing and, with `covering`, the lines run in that chunk
    /// (`LoadedPolicy.chunkname`) marked; answers what it returned, the lines traced, and the
    /// line numbers run (empty without `covering`). The aids are off again afterwards.
    public func authoring<T>(tracing: Bool, covering chunk: String? = nil, _ body: () throws -> T) rethrows -> (T, [PolicyTraceLine], Set<Int>) {
        let flags = Int32((tracing ? SD_AUTHORING_TRACE : 0) | (chunk == nil ? 0 : SD_AUTHORING_COVERAGE))
        withLock { (chunk ?? "").withCString { sd_host_set_authoring(handle, flags, chunk == nil ? nil : $0) } }
        defer { withLock { sd_host_set_authoring(handle, 0, nil) } }
        _ = takeTrace()
        let result = try body()
        return (result, takeTrace(), chunk == nil ? [] : takeCoverage())
    }

    /// The lines traced since the last take.
    func takeTrace() -> [PolicyTraceLine] {
        withLock {
            guard let text = sd_take_trace(handle, nil) else { return [] }
            defer { free(text) }
            return PolicyTraceLine.parse(String(cString: text))
        }
    }

    /// The line numbers marked run.
    private func takeCoverage() -> Set<Int> {
        withLock {
            var marks = [UInt8](repeating: 0, count: Self.coverLines)
            let count = marks.withUnsafeMutableBufferPointer { sd_take_coverage(handle, $0.baseAddress, Int32($0.count)) }
            return Set((0..<Int(count)).filter { marks[$0] != 0 })
        }
    }

    /// The most lines coverage counts (`SD_COVER_LINES`).
    static let coverLines = 65536

    /// What a data file (`NAME_test.lua`) returns, run in the sandbox under one call's budgets;
    /// throws `PolicyError` naming the file and line.
    public func data(source: String, file: String) throws -> JSONValue {
        let chunkname = LoadedPolicy.chunkname(file)
        let text = try call(policy: URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent, file: file) { handle, error -> String? in
            let bytes = Array(source.utf8)
            let json = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { sd_load_data(handle, $0.baseAddress, $0.count, chunkname, error) }
            }
            guard let json else { return nil }
            defer { free(json) }
            return String(cString: json)
        }
        return try JSONValue(parsing: text)
    }

    /// The lines holding code of `policy`'s functions (and the helpers they reach), those a case
    /// can run: what coverage is counted against.
    func lines(of policy: LoadedPolicy) throws -> Set<Int> {
        var marks = [UInt8](repeating: 0, count: Self.coverLines)
        let chunkname = LoadedPolicy.chunkname(policy.file)
        _ = try call(policy: policy.name, file: policy.file) { handle, error -> Bool? in
            marks.withUnsafeMutableBufferPointer { buffer in
                sd_policy_lines(handle, policy.reference, chunkname, buffer.baseAddress, Int32(buffer.count), error) == 0 ? true : nil
            }
        }
        return Set(marks.indices.filter { marks[$0] != 0 })
    }
}
