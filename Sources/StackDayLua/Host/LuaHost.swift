import CLuaHost
import Foundation

/// One sandboxed Lua state that policies are loaded into and called in.
///
/// Every call that can raise a Lua error runs inside `lua_pcall` in the C core; errors come
/// back as `PolicyError`.
///
/// `@unchecked Sendable`: the state is touched only inside `withLock`, so one thread at a time
/// uses it; an engine serving many callers still gives each worker thread a host of its own.
public final class LuaHost: @unchecked Sendable {
    let handle: OpaquePointer
    private let lock = NSLock()
    public let budget: PolicyBudget

    /// Throws `PolicyError` when the state cannot be created.
    public init(budget: PolicyBudget = .standard) throws {
        var error = sd_error(kind: 0, message: nil)
        defer { sd_error_clear(&error) }
        let source = HostLuaSources.all["prelude", default: ""]
        guard let host = source.withCString({ sd_host_new($0, strlen($0), &error) }) else {
            throw PolicyError(policy: "(host)", file: nil, line: nil, kind: .unavailable, message: Self.message(error) ?? "cannot create a Lua state")
        }
        handle = host
        self.budget = budget
        sd_host_set_budgets(host, Int64(budget.instructions), budget.memoryBytes)
        sd_host_set_limits(host, Int64(budget.cpuMilliseconds) * 1_000_000, budget.stateBytes)
    }

    deinit {
        sd_host_free(handle)
    }

    /// Bytes the Lua state holds.
    public var memoryInUse: Int { withLock { sd_host_memory(handle) } }

    /// Whether a standard library (`"io"`, `"os"`, …) was ever loaded into the state; only
    /// `_G`, `string`, `table`, `math` and `utf8` are.
    public func hasLoadedLibrary(_ name: String) -> Bool {
        withLock { sd_host_library_loaded(handle, name) != 0 }
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs one C-core call and turns a failure into a `PolicyError` about `policy`.
    func call<T>(policy: String, file: String?, _ body: (OpaquePointer, UnsafeMutablePointer<sd_error>) -> T?) throws -> T {
        try withLock {
            var error = sd_error(kind: 0, message: nil)
            defer { sd_error_clear(&error) }
            if let result = body(handle, &error), Int(error.kind) == SD_OK {
                return result
            }
            throw Self.policyError(error, policy: policy, file: file)
        }
    }

    static func message(_ error: sd_error) -> String? {
        error.message.map { String(cString: $0) }
    }

    static func policyError(_ error: sd_error, policy: String, file: String?) -> PolicyError {
        let text = message(error) ?? "failed"
        let kind: PolicyError.Kind
        switch Int(error.kind) {
        case SD_ERROR_INSTRUCTIONS: kind = .instructionBudget
        case SD_ERROR_MEMORY: kind = .memoryBudget
        case SD_ERROR_TIME: kind = .timeBudget
        case SD_ERROR_ANSWER: kind = .wrongAnswer
        case SD_ERROR_HOST: kind = .unavailable
        default: kind = .script
        }
        let chunk = file.map { URL(fileURLWithPath: $0).lastPathComponent } ?? policy
        let (line, body) = LuaErrorText.split(text, chunk: chunk)
        return PolicyError(policy: policy, file: file, line: line, kind: kind, message: body)
    }

    /// Releases a registry reference held by a loaded policy or a binding.
    func release(_ reference: Int32) {
        withLock { sd_release(handle, reference) }
    }
}

