/// The days each of a run of numbered revisions judges, shared by a habit's rules and a group's:
/// revision r from its day to the day before the earliest day of any later revision (two
/// devices may have changed rules apart, so a later revision may start earlier), and where one
/// span's revision holds the rules of the one before it (a rollback bringing them back), the
/// two are one span under the first, so a streak rule keeps its whole state and a quota period
/// is not cut there.
enum RevisionSpans {
    /// `revisions` in number order; `from` is a revision's first day, nil for one that judges from
    /// the range's beginning (a habit's first). Spans judging no day of `range` are left out.
    static func of<Revision>(_ revisions: [Revision], in range: LocalDayRange, from: (Revision) -> LocalDay?,
                             sameRules: (Revision, Revision) -> Bool) -> [(revision: Revision, days: LocalDayRange)] {
        guard !range.isEmpty else { return [] }
        var spans: [(revision: Revision, days: LocalDayRange)] = []
        var limit: LocalDay? = nil
        for revision in revisions.reversed() {
            let start = from(revision)
            let first = start.map { max(range.first, $0) } ?? range.first
            let last = limit.map { min(range.last, $0.adding(days: -1)) } ?? range.last
            if first <= last { spans.append((revision, LocalDayRange(first, last))) }
            if let start { limit = limit.map { min($0, start) } ?? start }
        }
        var merged: [(revision: Revision, days: LocalDayRange)] = []
        for span in spans.reversed() {
            if let previous = merged.last, sameRules(previous.revision, span.revision) {
                merged[merged.count - 1] = (previous.revision, LocalDayRange(previous.days.first, span.days.last))
            } else {
                merged.append(span)
            }
        }
        return merged
    }
}
