import StackDay
import StackDayExchange

/// An installed script: `{"name", "sha256", "installedAt"}`, with its `source` when asked for one.
public struct PolicyScriptView: JSONView {
    public let script: PolicyScript
    public let includesSource: Bool

    public init(_ script: PolicyScript, includesSource: Bool = false) {
        self.script = script
        self.includesSource = includesSource
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(script.name), "sha256": .string(script.sha256), "installedAt": .string(InstantText.format(script.installedAt)),
        ]
        if includesSource { object["source"] = .string(script.source) }
        return .object(object)
    }
}
