/// The known name closest to a misspelled one, for "did you mean": within an edit distance of 1
/// for short names and 2 for longer ones, or one name starting with the other. Nil when nothing
/// is that close, so that a far-off guess is never offered.
public enum DidYouMean {
    public static func suggestion(for name: String, among names: [String]) -> String? {
        let lowered = name.lowercased()
        guard !lowered.isEmpty else { return nil }
        let scored = names.map { candidate -> (String, Int) in
            let other = candidate.lowercased()
            if lowered.count >= 2, other.hasPrefix(lowered) || lowered.hasPrefix(other) { return (candidate, 0) }
            return (candidate, EditDistance.between(lowered, other))
        }
        guard let best = scored.filter({ $0.0.lowercased() != lowered }).min(by: { $0.1 < $1.1 }),
              best.1 <= max(1, min(2, name.count / 2))
        else { return nil }
        return best.0
    }

    /// `; did you mean 'NAME'?`, or nothing.
    public static func hint(for name: String, among names: [String]) -> String {
        hint(suggestion(for: name, among: names))
    }

    /// The same for a suggestion already found; `koreanHint` is its Korean form (`; 혹시 'NAME'?`).
    public static func hint(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }

    public static func koreanHint(_ suggestion: String?) -> String {
        suggestion.map { "; 혹시 '\($0)'?" } ?? ""
    }
}
