import Foundation
import StackDay
import StackDayExchange

/// The named inputs of one request, whichever surface sent them: a command line's options and
/// arguments (text, and flags) or an HTTP request's JSON body and query (typed values and text).
///
/// Keys are the API's field names (`scheduleParams`); the command line's `--schedule-params`
/// arrives under the same key. Each accessor reads its value strictly and throws a
/// `RequestError` that names the field as its surface spells it (`--goal`, `field 'goal'`).
public struct RequestFields: Sendable {
    /// A value as sent: text to be parsed (an option, a query argument), or JSON.
    public enum Value: Sendable, Hashable {
        case text(String)
        case json(JSONValue)
    }

    /// Where the fields came from: how a key not given is named in a message.
    public enum Surface: Sendable {
        /// `scheduleParams` is `--schedule-params`.
        case commandLine
        /// `scheduleParams` is `field 'scheduleParams'`.
        case http
    }

    private var values: [String: Value]
    private var labels: [String: String]
    let surface: Surface

    /// `values` under their keys; `labels` how the surface names each key in a message.
    public init(values: [String: Value] = [:], labels: [String: String] = [:], surface: Surface = .commandLine) {
        self.values = values
        self.labels = labels
        self.surface = surface
    }

    /// An HTTP request's fields: its query arguments as text, then the fields of its JSON object
    /// body (empty: none). Throws for a body that is not one JSON object.
    public init(query: [(key: String, value: String)], body: [UInt8]) throws {
        var values: [String: Value] = [:]
        var labels: [String: String] = [:]
        for (key, value) in query {
            values[key] = .text(value)
            labels[key] = "query argument '\(key)'"
        }
        if !body.isEmpty {
            guard let text = String(validating: body, as: UTF8.self) else { throw RequestError("the body is not UTF-8") }
            let parsed: JSONValue
            do { parsed = try JSONValue(parsing: text) } catch { throw RequestError("the body is not JSON: \(error)") }
            guard case .object(let fields) = parsed else { throw RequestError("the body must be a JSON object") }
            for (key, value) in fields {
                values[key] = .json(value)
                labels[key] = "field '\(key)'"
            }
        }
        self.init(values: values, labels: labels, surface: .http)
    }

    /// The name of `key` in messages.
    func label(_ key: String) -> String {
        if let label = labels[key] { return label }
        switch surface {
        case .http: return "field '\(key)'"
        case .commandLine:
            return "--" + key.unicodeScalars.map { CharacterSet.uppercaseLetters.contains($0) ? "-" + String($0).lowercased() : String($0) }.joined()
        }
    }

    /// Whether `key` was given (a JSON `null` counts as not given).
    func has(_ key: String) -> Bool {
        switch values[key] {
        case nil, .json(.null)?: false
        default: true
        }
    }

    /// The request `R` from these fields; a key `R` does not declare is `unknown field 'x'`
    /// (with the declared key closest to it: `(did you mean 'y'?)`). The one decoding step every
    /// surface (command line, JSON, query, form) goes through.
    public func decode<R: RequestType>(_ type: R.Type = R.self) throws -> R {
        let declared = surface == .http ? R.httpFields : R.fields
        let keys = declared.map(\.key)
        if let unknown = values.keys.sorted().first(where: { !keys.contains($0) }) {
            let what = labels[unknown]?.hasPrefix("query") == true ? "query argument" : "field"
            let hint = DidYouMean.suggestion(for: unknown, among: keys).map { " (did you mean '\($0)'?)" } ?? ""
            throw RequestError("unknown \(what) '\(unknown)'\(hint)")
        }
        return try R(self)
    }

    /// The value of `field`, read strictly; nil when not given.
    public subscript<Value>(field: RequestField<Value>) -> Value? {
        get throws { try field.read(self, field.key) }
    }

    /// The value of `field`, or `\(label) is required`.
    public func required<Value>(_ field: RequestField<Value>) throws -> Value {
        guard let value = try self[field] else { throw RequestError("\(label(field.key)) is required") }
        return value
    }

    /// Whether `field` was given.
    public func has<Value>(_ field: RequestField<Value>) -> Bool { has(field.key) }

    /// How this surface names `field` in a message (`--schedule-params`, `field 'scheduleParams'`).
    public func label<Value>(_ field: RequestField<Value>) -> String { naming(field) }

    /// The labels of this request's fields, kept by a request for the messages its operation gives.
    public var naming: FieldNaming { FieldNaming(surface: surface, labels: labels) }

    /// The same fields with `key` set to `value` (a default an adapter supplies, or a path segment).
    public func with(_ key: String, _ value: Value, label: String? = nil) -> RequestFields {
        var copy = self
        copy.values[key] = value
        if let label { copy.labels[key] = label }
        return copy
    }

    /// The same fields without `key` (an option the adapter handles itself, like `--out`).
    public func removing(_ key: String) -> RequestFields {
        var copy = self
        copy.values[key] = nil
        return copy
    }

    func invalid(_ key: String, _ reason: String) -> RequestError {
        RequestError("invalid value for \(label(key)): \(reason)")
    }

    func string(_ key: String) throws -> String? {
        switch values[key] {
        case nil, .json(.null)?: return nil
        case .text(let text)?, .json(.string(let text))?: return text
        default: throw invalid(key, "a string is expected")
        }
    }

    /// A number; text is read as a decimal number (`nan` and `inf` too: the use case says why
    /// an amount or a goal cannot be one).
    func number(_ key: String) throws -> Double? {
        switch values[key] {
        case nil, .json(.null)?: return nil
        case .json(.number(let number))?: return number
        case .text(let text)?:
            guard let number = Double(text) else { throw invalid(key, "'\(text)' is not a number") }
            return number
        default: throw invalid(key, "a number is expected")
        }
    }

    /// A whole number from `range`, described as `what` in the message when it is not one.
    func integer(_ key: String, in range: ClosedRange<Int>, what: String) throws -> Int? {
        let value: Double?
        do { value = try number(key) } catch { throw invalid(key, "'\(try string(key) ?? "")' is not \(what)") }
        guard let value else { return nil }
        guard value == value.rounded(), value >= Double(range.lowerBound), value <= Double(range.upperBound) else {
            throw invalid(key, "'\(Quantity.describe(value))' is not \(what)")
        }
        return Int(value)
    }

    /// A flag or a JSON boolean; absent is false.
    func bool(_ key: String) throws -> Bool {
        switch values[key] {
        case nil, .json(.null)?: return false
        case .json(.bool(let value))?: return value
        case .text(let text)?:
            switch text {
            case "true": return true
            case "false": return false
            default: throw invalid(key, "'\(text)' is not true or false")
            }
        default: throw invalid(key, "true or false is expected")
        }
    }

    /// Strings: a JSON array of them, or one text (a string) as a list of one; nil when absent.
    func strings(_ key: String) throws -> [String]? {
        switch values[key] {
        case nil, .json(.null)?: return nil
        case .text(let text)?, .json(.string(let text))?: return [text]
        case .json(.array(let items))?:
            let texts = items.compactMap(\.stringValue)
            guard texts.count == items.count else { throw invalid(key, "an array of strings is expected") }
            return texts
        default: throw invalid(key, "a string or an array of strings is expected")
        }
    }

    /// A JSON object; text is parsed as JSON.
    func object(_ key: String) throws -> [String: JSONValue]? {
        switch values[key] {
        case nil, .json(.null)?: return nil
        case .json(.object(let object))?: return object
        case .text(let text)?:
            let parsed: JSONValue
            do { parsed = try JSONValue(parsing: text) } catch { throw invalid(key, "\(error)") }
            guard case .object(let object) = parsed else { throw invalid(key, "a JSON object is expected") }
            return object
        default: throw invalid(key, "a JSON object is expected")
        }
    }

    /// A day as `YYYY-MM-DD`, inside 0001-01-01 … 9999-12-31.
    func day(_ key: String) throws -> LocalDay? {
        guard let text = try string(key) else { return nil }
        let day: LocalDay
        do { day = try LocalDay(iso: text) } catch { throw invalid(key, "\(error)") }
        guard day.isSupported else { throw invalid(key, "\(day) is outside 0001-01-01 … 9999-12-31") }
        return day
    }

    /// An RFC 3339 instant with an offset (`InstantText.parse`).
    func instant(_ key: String) throws -> Date? {
        guard let text = try string(key) else { return nil }
        guard let instant = InstantText.parse(text) else { throw invalid(key, "'\(text)' is not an ISO 8601 instant with an offset") }
        return instant
    }
}
