import StackDay

/// Writes JSON values as Lua table constructors, so parameters reach Lua through the
/// text loader inside a protected call rather than through unprotected pushes.
enum LuaLiteral {
    static func table(_ members: [String: JSONValue]) -> String {
        var output = "return "
        write(.object(members), to: &output)
        return output
    }

    static func write(_ value: JSONValue, to output: inout String) {
        switch value {
        case .null: output += "nil"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): output += NumberText.format(number)
        case .string(let text): writeString(text, to: &output)
        case .array(let items):
            output += "{"
            for item in items {
                write(item, to: &output)
                output += ","
            }
            output += "}"
        case .object(let members):
            output += "{"
            for key in members.keys.sorted() {
                output += "["
                writeString(key, to: &output)
                output += "]="
                write(members[key] ?? .null, to: &output)
                output += ","
            }
            output += "}"
        }
    }

    /// A quoted Lua string with every byte outside plain ASCII letters, digits and a few marks escaped as `\ddd`.
    static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ":"),
                 UInt8(ascii: ";"), UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "/"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                // \ddd reads up to three digits; always three, so a following digit is not swallowed.
                let digits = String(byte)
                output += "\\" + String(repeating: "0", count: 3 - digits.count) + digits
            }
        }
        output += "\""
    }
}
