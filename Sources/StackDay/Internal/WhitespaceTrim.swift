import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, answered without Foundation's string
    /// bridging when neither end is whitespace (names are read for every habit of every request).
    var trimmedWhitespace: String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last else { return self }
        let whitespace = CharacterSet.whitespacesAndNewlines
        guard whitespace.contains(first) || whitespace.contains(last) else { return self }
        return trimmingCharacters(in: whitespace)
    }
}
