import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, answered without Foundation's string
    /// bridging when neither end is whitespace (names are read for every habit of every request).
    var trimmedWhitespace: String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return self }
        // Visible ASCII at both ends, the usual case, needs no character set at all.
        if (0x21...0x7E).contains(first.value), (0x21...0x7E).contains(last.value) { return self }
        let whitespace = CharacterSet.whitespacesAndNewlines
        guard whitespace.contains(first) || whitespace.contains(last) else { return self }
        return trimmingCharacters(in: whitespace)
    }

    /// `trimmingCharacters(in: .whitespaces)` (tabs and spaces, not line breaks), likewise.
    var trimmedBlanks: String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last, first.isBlank || last.isBlank else { return self }
        return trimmingCharacters(in: .whitespaces)
    }
}

extension Unicode.Scalar {
    /// A member of Foundation's `.whitespaces`: a tab or a space separator (Zs), read from the
    /// standard library's own tables rather than by building a CharacterSet.
    var isBlank: Bool { self == "\t" || properties.generalCategory == .spaceSeparator }
}
