import StackDay

/// The one declaration of `trace`: show what policies wrote with `trace()` (`policy simulate
/// --trace`, `explain --trace`, `"trace": true` in the API, the rule lab always).
public enum PolicyTracing {
    public static let field = RequestField<Bool>.flag("trace", help: "Also show what the policies wrote with trace(), with the file, line and day of each line.")
}
