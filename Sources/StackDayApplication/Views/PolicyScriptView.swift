import StackDay
import StackDayExchange

/// A script: `{"name", "sha256", "installedAt"}`, with its `source` text when asked for one, and
/// where its name was found (`origin`: `installed`, `folder`, …, and `sharedBy`) when it was looked up.
public struct PolicyScriptView: JSONView {
    public let script: PolicyScript
    public let includesSource: Bool
    public let origin: ResolvedPolicy?

    public init(_ script: PolicyScript, includesSource: Bool = false, origin: ResolvedPolicy? = nil) {
        self.script = script
        self.includesSource = includesSource
        self.origin = origin
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(script.name), "sha256": .string(script.sha256), "installedAt": .string(InstantText.format(script.installedAt)),
        ]
        if includesSource { object["source"] = .string(script.source) }
        if let origin {
            object["origin"] = .string(origin.source.rawValue)
            if let sharedBy = origin.sharedBy { object["sharedBy"] = .string(sharedBy) }
        }
        return .object(object)
    }
}
