/// How the surface a request came from names its fields in messages: `--from` on the command
/// line, `field 'from'` in JSON, `query argument 'from'` in a query. A request keeps it for the
/// messages its operation gives after decoding (`--from 2026-05-02 is after --to 2026-05-01`).
public struct FieldNaming: Sendable {
    let surface: RequestFields.Surface
    let labels: [String: String]

    /// The command line's names, or the API's with `http`.
    public init(http: Bool = false) {
        self.init(surface: http ? .http : .commandLine, labels: [:])
    }

    init(surface: RequestFields.Surface, labels: [String: String]) {
        self.surface = surface
        self.labels = labels
    }

    /// Whether the request came over HTTP (or from the web's forms).
    public var isHTTP: Bool { surface == .http }

    /// The name of `field` in a message.
    public func callAsFunction<Value>(_ field: RequestField<Value>) -> String {
        labels[field.key] ?? (surface == .http ? "field '\(field.key)'" : field.declaration.commandLineLabel)
    }
}
