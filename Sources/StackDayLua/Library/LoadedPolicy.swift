import CLuaHost
import Foundation
import StackDay

/// A policy file compiled into a `LuaHost`.
///
/// `@unchecked Sendable`: every stored property is immutable, and its calls into Lua go through
/// the host, which serializes them with its lock.
public final class LoadedPolicy: @unchecked Sendable {
    public let name: String
    /// Where it came from: a file's path, or `built-in:NAME.lua` for one compiled into the binary.
    public let file: String
    /// The Lua source text it was compiled from.
    public let source: String
    /// The SHA-256 of `source`'s UTF-8 bytes: what the policy is known by, whatever its file.
    public let sha256: SHA256
    public let info: PolicyInfo
    /// What the policy declared, as the JSON text `info` was read from.
    public let declaration: String
    let host: LuaHost
    let reference: Int32

    /// Compiles and runs `source` in a fresh sandboxed environment; throws `PolicyError` naming file and line.
    convenience init(name: String, file: String, source: String, sha256: SHA256, host: LuaHost) throws {
        try self.init(name: name, file: file, source: source, sha256: sha256, host: host, compiled: nil, declared: nil)
    }

    /// Runs `compiled` (bytecode `host.compile` made of `source`, in this process) in a fresh
    /// sandboxed environment: a new instance of the policy, sharing nothing with other instances
    /// of it but the code. Throws `PolicyError` naming file and line.
    ///
    /// With `declared` (what an earlier instance of the same bytecode declared, and its JSON
    /// text: a pure function of the source) the declaration is not asked of Lua again.
    public convenience init(name: String, file: String, compiled: PolicyBytecode, host: LuaHost, declared: (PolicyInfo, String)? = nil) throws {
        try self.init(name: name, file: file, source: compiled.source, sha256: compiled.sha256, host: host, compiled: compiled, declared: declared)
    }

    private init(name: String, file: String, source: String, sha256: SHA256, host: LuaHost, compiled: PolicyBytecode?,
                 declared: (PolicyInfo, String)? = nil) throws {
        self.name = name
        self.file = file
        self.source = source
        self.sha256 = sha256
        self.host = host
        let chunkname = Self.chunkname(file)
        let reference = try host.call(policy: name, file: file) { handle, error in
            let reference: Int32
            if let compiled {
                reference = compiled.bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { sd_load_compiled_policy(handle, $0.baseAddress, $0.count, chunkname, error) }
                }
            } else {
                let bytes = Array(source.utf8)
                reference = bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { sd_load_policy(handle, $0.baseAddress, $0.count, chunkname, error) }
                }
            }
            return reference > 0 ? reference : nil
        }
        if let (info, json) = declared {
            self.info = info
            declaration = json
            self.reference = reference
            return
        }
        do {
            let json = try host.call(policy: name, file: file) { handle, error -> String? in
                guard let text = sd_describe_policy(handle, reference, error) else { return nil }
                defer { free(text) }
                return String(cString: text)
            }
            info = try PolicyInfo(describing: json, policy: name, file: file)
            declaration = json
            self.reference = reference
        } catch {
            host.release(reference)
            throw error
        }
    }

    deinit {
        host.release(reference)
    }

    /// The chunk name errors carry: the file's last path component.
    static func chunkname(_ file: String) -> String {
        "@" + (file.split(separator: "/").last.map(String.init) ?? file)
    }

    /// Binds this policy to a habit's parameters; throws `PolicyError` (kind `.parameters`) when its
    /// `validate` function refuses them. With `usesRangeForms` false every day is its own call.
    public func bind(parameters: [String: JSONValue], startedOn: LocalDay, goal: Double, unit: String,
                     usesRangeForms: Bool = true) throws -> PolicyBinding {
        let literal = parameters.isEmpty ? "" : JSONValue.object(parameters).jsonText
        do {
            let reference = try host.call(policy: name, file: file) { handle, error -> Int32? in
                let reference = literal.withCString { text in
                    unit.withCString { sd_bind(handle, self.reference, text, literal.utf8.count, Int32(startedOn.ordinal), goal, $0, error) }
                }
                return reference > 0 ? reference : nil
            }
            return PolicyBinding(policy: self, reference: reference, usesRangeForms: usesRangeForms)
        } catch let error as PolicyError where error.kind == .script {
            throw PolicyError(policy: name, file: file, line: error.line, kind: .parameters, message: error.message)
        }
    }
}
