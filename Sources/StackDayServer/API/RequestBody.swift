import StackDay

/// A JSON object request body, read strictly: every field must be one the endpoint knows, each of
/// the type it expects; anything else is a 400 naming the field.
struct RequestBody {
    private let fields: [String: JSONValue]

    /// Parses `bytes` as one JSON object whose keys are all in `allowed`.
    init(_ bytes: [UInt8], allowed: Set<String>) throws {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw APIError.badRequest("the body is not UTF-8") }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw APIError.badRequest("the body is not JSON: \(error)")
        }
        guard case .object(let fields) = value else { throw APIError.badRequest("the body must be a JSON object") }
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw APIError.badRequest("unknown field '\(unknown)'")
        }
        self.fields = fields
    }

    func has(_ key: String) -> Bool { fields[key] != nil }

    func string(_ key: String) throws -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw APIError.badRequest("field '\(key)' must be a string")
        }
    }

    func requiredString(_ key: String) throws -> String {
        guard let value = try string(key) else { throw APIError.badRequest("field '\(key)' is required") }
        return value
    }

    func bool(_ key: String) throws -> Bool? {
        switch fields[key] {
        case nil, .null?: return nil
        case .bool(let value)?: return value
        default: throw APIError.badRequest("field '\(key)' must be true or false")
        }
    }

    /// A finite number.
    func number(_ key: String) throws -> Double? {
        switch fields[key] {
        case nil, .null?: return nil
        case .number(let value)?:
            guard value.isFinite else { throw APIError.badRequest("field '\(key)' must be a finite number") }
            return value
        default: throw APIError.badRequest("field '\(key)' must be a number")
        }
    }

    func object(_ key: String) throws -> [String: JSONValue]? {
        switch fields[key] {
        case nil, .null?: return nil
        case .object(let value)?: return value
        default: throw APIError.badRequest("field '\(key)' must be a JSON object")
        }
    }

    /// An ISO day (`2026-10-05`).
    func day(_ key: String) throws -> LocalDay? {
        guard let text = try string(key) else { return nil }
        guard let day = try? LocalDay(iso: text), day.isSupported else {
            throw APIError.badRequest("field '\(key)' must be a day as YYYY-MM-DD, not '\(text)'")
        }
        return day
    }
}
