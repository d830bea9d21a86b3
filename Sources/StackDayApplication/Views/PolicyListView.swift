import StackDay

/// `GET /v1/policies`: `{"policies": [script…]}`, the scripts the user installed.
public struct PolicyListView: JSONView {
    public let scripts: [PolicyScript]

    public var json: JSONValue { .object(["policies": .array(scripts.map { PolicyScriptView($0).json })]) }
}
