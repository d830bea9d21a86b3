import StackDay
import StackDayApplication

/// A form's `<input>` for a request field: its `name` is the field's key and its type and limits
/// come from the field's schema (a number, a day, a length), so the forms post what the request
/// declares. Every value and attribute given is escaped.
enum FormField {
    /// `<input>` for `field`: a visible one with `id`, or a hidden one without. `attributes` are
    /// added as given (names are the page's own), each value escaped.
    static func input<Value>(_ field: RequestField<Value>, id: String? = nil, value: String?, attributes: [(String, String)] = []) -> HTML {
        var parts = [("name", field.key)]
        if let id { parts.insert(("id", id), at: 0) }
        let schema = field.declaration.schema.objectValue ?? [:]
        if id == nil {
            parts.append(("type", "hidden"))
        } else {
            switch (schema["type"]?.stringValue, schema["format"]?.stringValue) {
            case ("number", _): parts += [("type", "number"), ("inputmode", "decimal"), ("step", "any")]
            case ("integer", _): parts += [("type", "number"), ("inputmode", "numeric"), ("step", "1")]
            case (_, "date"): parts.append(("type", "date"))
            default: break
            }
            if let minimum = schema["minimum"]?.numberValue { parts.append(("min", Quantity.describe(minimum))) }
            if let maximum = schema["maximum"]?.numberValue { parts.append(("max", Quantity.describe(maximum))) }
            if let length = schema["maxLength"]?.numberValue { parts.append(("maxlength", Quantity.describe(length))) }
        }
        if let value { parts.append(("value", value)) }
        parts += attributes
        return "<input\(parts.map { " \($0.0)=\"\($0.1)\"" as HTML }.joined())>"
    }
}
