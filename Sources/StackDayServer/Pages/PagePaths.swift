import Foundation

/// Paths of the pages: a habit's name as one percent-encoded segment.
enum PagePaths {
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// `text` when it is a path of this server to go back to after a form, nil otherwise: it
    /// starts with one `/`, and holds only visible ASCII and no backslash. Browsers read `\` as
    /// `/` and drop tabs and line breaks, so `/\evil.example/` or `/<TAB>/evil.example` would
    /// send the person to another site.
    static func localTarget(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "/"), bytes.count < 2 || bytes[1] != UInt8(ascii: "/"),
              bytes.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\\") }) else { return nil }
        return text
    }
}
