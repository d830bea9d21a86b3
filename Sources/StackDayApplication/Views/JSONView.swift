import StackDay

/// A value a request answers with, the same for every surface: the command line prints its
/// `json` with `--json`, the API answers it, the pages read the value itself.
public protocol JSONView: Sendable {
    var json: JSONValue { get }
}
