import StackDay

/// Text made safe to place in HTML and SVG (element content and quoted attributes): markup
/// characters as references, and control characters (but line breaks and tabs) shown as `\xNN`,
/// as the command line shows them, since HTML has no place for them.
public enum HTMLText {
    public static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in ControlEscapes.escaped(text, keeping: ["\n", "\t", "\r"]) {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }
}
