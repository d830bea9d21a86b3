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
    let host: LuaHost
    let reference: Int32

    /// Compiles and runs `source` in a fresh sandboxed environment; throws `PolicyError` naming file and line.
    init(name: String, file: String, source: String, sha256: SHA256, host: LuaHost) throws {
        self.name = name
        self.file = file
        self.source = source
        self.sha256 = sha256
        self.host = host
        let chunkname = "@" + (file.split(separator: "/").last.map(String.init) ?? file)
        let reference = try host.call(policy: name, file: file) { handle, error in
            let bytes = Array(source.utf8)
            let reference = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { sd_load_policy(handle, $0.baseAddress, $0.count, chunkname, error) }
            }
            return reference > 0 ? reference : nil
        }
        do {
            let json = try host.call(policy: name, file: file) { handle, error -> String? in
                guard let text = sd_describe_policy(handle, reference, error) else { return nil }
                defer { free(text) }
                return String(cString: text)
            }
            info = try Self.parseInfo(json, policy: name, file: file)
            self.reference = reference
        } catch {
            host.release(reference)
            throw error
        }
    }

    deinit {
        host.release(reference)
    }

    private static func parseInfo(_ json: String, policy: String, file: String) throws -> PolicyInfo {
        func fail(_ message: String) -> PolicyError {
            PolicyError(policy: policy, file: file, line: nil, kind: .script, message: message)
        }
        guard let object = try? JSONValue(parsing: json).objectValue else { throw fail("cannot read what the policy declares") }
        var roles = Set<PolicyRole>()
        if case .array(let names)? = object["roles"] {
            for case .string(let name) in names { if let role = PolicyRole(rawValue: name) { roles.insert(role) } }
        }
        var description = ""
        if case .string(let text)? = object["description"] { description = text }
        let defaults = object["params"]?.objectValue ?? [:]
        var examples: [JSONValue] = []
        if case .array(let items)? = object["examples"] { examples = items }
        return PolicyInfo(roles: roles, description: description, defaults: defaults, examples: examples,
                          schema: object["schema"]?.objectValue ?? [:])
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
