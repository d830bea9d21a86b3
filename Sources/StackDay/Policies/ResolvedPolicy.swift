/// What a policy name resolved to: the script and where it was found.
public struct ResolvedPolicy: Hashable, Sendable {
    public let script: PolicyScript
    public let source: PolicySource
    /// The user who shared it (`.shared` only).
    public let sharedBy: String?
    /// The file it was read from (`.folder` only): for the command line to show, never for an
    /// answer over HTTP.
    public let file: String?

    public init(script: PolicyScript, source: PolicySource, sharedBy: String? = nil, file: String? = nil) {
        self.script = script
        self.source = source
        self.sharedBy = sharedBy
        self.file = file
    }

    public var name: String { script.name }

    /// The choice that runs this script: its name, `parameters`, pinned to its hash.
    public func choice(parameters: [String: JSONValue] = [:]) -> PolicyChoice {
        PolicyChoice(name: script.name, parameters: parameters, sha256: script.sha256)
    }

    /// How a listing says where it came from: `installed`, `shared by ana`, ….
    public var sourceText: String {
        sharedBy.map { "shared by \($0)" } ?? source.rawValue
    }
}
