/// iCalendar text (RFC 5545) written a content line at a time: values escaped as TEXT where they
/// are text (§3.3.11: backslash, semicolon, comma, newline), lines folded to at most 75 octets
/// without splitting a UTF-8 character (§3.1), every line ended by CRLF.
public struct ICalendarText: Sendable {
    private var lines: [String] = []

    public init() {}

    /// `NAME[;PARAMETERS]:VALUE` with `value` as written (a date, a rule, a duration).
    public mutating func line(_ name: String, _ value: String) {
        lines.append(name + ":" + value)
    }

    /// A property whose value is TEXT: escaped.
    public mutating func text(_ name: String, _ value: String) {
        line(name, Self.escaped(value))
    }

    /// The calendar so far, folded, each line ended by CRLF.
    public var text: String {
        lines.map(Self.folded).joined()
    }

    /// TEXT escaping: `\` `;` `,` and newlines (CR LF, LF or CR) as `\n`.
    public static func escaped(_ value: String) -> String {
        var out = ""
        var previousCR = false
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\r": out += "\\n"
            case "\n": if !previousCR { out += "\\n" }
            default: out.unicodeScalars.append(scalar)
            }
            previousCR = scalar == "\r"
        }
        return out
    }

    /// One content line in pieces of at most 75 octets, each continuation starting with a space.
    static func folded(_ line: String) -> String {
        var out = ""
        var width = 0
        for character in line {
            let octets = String(character).utf8.count
            if width + octets > 75 {
                out += "\r\n "
                width = 1
            }
            out.append(character)
            width += octets
        }
        return out + "\r\n"
    }
}
