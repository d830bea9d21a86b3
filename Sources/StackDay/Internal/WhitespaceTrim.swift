import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, answered without Foundation's string
    /// bridging when neither end is whitespace (names are read for every habit of every request).
    var trimmedWhitespace: String { trimmed(.whitespacesAndNewlines) }

    /// `trimmingCharacters(in: .whitespaces)` (spaces and tabs, not line breaks), likewise.
    var trimmedBlanks: String { trimmed(.whitespaces) }

    private func trimmed(_ whitespace: CharacterSet) -> String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return self }
        // Visible ASCII at both ends, the usual case, needs no character set at all.
        if (0x21...0x7E).contains(first.value), (0x21...0x7E).contains(last.value) { return self }
        guard whitespace.contains(first) || whitespace.contains(last) else { return self }
        return trimmingCharacters(in: whitespace)
    }
}
