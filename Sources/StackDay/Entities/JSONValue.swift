/// A JSON value, as policy parameters are stored and handed to policies.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses JSON text; throws `JSONValueError` naming what is wrong and where.
    public init(parsing text: String) throws(JSONValueError) {
        var parser = JSONParser(text: text)
        self = try parser.parseDocument()
    }

    /// Compact JSON text with object keys sorted, so equal values print equally.
    public var jsonText: String {
        String(decoding: jsonBytes, as: UTF8.self)
    }

    /// `jsonText` as UTF-8 bytes (what a server sends), built without intermediate strings.
    public var jsonBytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return output
    }

    private func write(to output: inout [UInt8]) {
        switch self {
        case .null: output += "null".utf8
        case .bool(let value): output += (value ? "true" : "false").utf8
        case .number(let value): output += JSONValue.format(value).utf8
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                item.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    static func format(_ value: Double) -> String {
        value.isFinite ? NumberText.format(value) : "null"
    }

    /// A string literal: `"` and `\\` escaped, control characters (C0, DEL and C1) as `\\n`,
    /// `\\r`, `\\t` or `\\u00XX`; every other character's UTF-8 as it is. No control character
    /// reaches a terminal raw, so printed JSON is never escaped again (`ControlEscapes`).
    static func writeString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most strings need no escape: copied whole. (0xC2 leads the C1 controls U+0080–U+009F.)
        let copied = value.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            output.append(contentsOf: bytes)
            return true
        }
        if copied == true {
            output.append(UInt8(ascii: "\""))
            return
        }
        let digits = Array("0123456789abcdef".utf8)
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x22: output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case 0x5C: output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20, 0x7F...0x9F:
                output += [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, digits[Int(scalar.value >> 4)], digits[Int(scalar.value & 15)]]
            default: output += Array(String(scalar).utf8)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The members when this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The items when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The text when this is a string.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number when this is one.
    public var numberValue: Double? {
        if case .number(let number) = self { return number }
        return nil
    }
}

/// Text that is not valid JSON.
public struct JSONValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the parser expected or found.
    public let reason: String
    /// The 1-based character column where parsing stopped.
    public let column: Int
    public var description: String { "invalid JSON at column \(column): \(reason)" }
}

extension JSONValue {
    /// Strings are equal byte for byte, as JSON carries them: `café` in NFC and in NFD are two
    /// values (Swift's `String` would call them one), so a change of normalisation is a change.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a.utf8.elementsEqual(b.utf8)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(1); hasher.combine(value)
        case .number(let value): hasher.combine(2); hasher.combine(value)
        case .string(let value): hasher.combine(3); value.utf8.forEach { hasher.combine($0) }
        case .array(let value): hasher.combine(4); hasher.combine(value)
        case .object(let value): hasher.combine(5); hasher.combine(value)
        }
    }
}
