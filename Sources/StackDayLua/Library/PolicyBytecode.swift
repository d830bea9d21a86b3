import CLuaHost
import Foundation
import StackDay

/// A policy's source compiled once into Lua bytecode by this process's own compiler: loading it
/// again makes a fresh instance of the policy without compiling (`LoadedPolicy(compiled:)`).
/// Never read from outside the process: bytecode from elsewhere could break the sandbox.
public struct PolicyBytecode: Sendable {
    public let name: String
    public let source: String
    public let sha256: SHA256
    let bytes: [UInt8]

    /// Bytes the bytecode takes.
    public var count: Int { bytes.count }

    /// Compiles `source` in `host` under the call's budgets (a compile is work too); throws
    /// `PolicyError` naming `file` and the line of a syntax error.
    public init(name: String, file: String, source: String, host: LuaHost) throws {
        self.name = name
        self.source = source
        sha256 = SHA256(of: source)
        let chunkname = LoadedPolicy.chunkname(file)
        bytes = try host.call(policy: name, file: file) { handle, error -> [UInt8]? in
            var output: UnsafeMutablePointer<CChar>? = nil
            var length = 0
            let status = Array(source.utf8).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { sd_compile_policy(handle, $0.baseAddress, $0.count, chunkname, &output, &length, error) }
            }
            guard status == 0, let output else { return nil }
            defer { free(output) }
            return output.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
        }
    }
}
