import Foundation
import StackDay

/// The habits one write transaction touched, with the earliest day touched for each, applied to
/// the evaluation cache once before the transaction commits (one update per habit, however many
/// rows an import writes).
final class CacheInvalidation {
    private let owner: SQLValue
    /// nil: the habit itself changed (rules, start, archive) but no particular day.
    private var touched: [UUID: LocalDay?] = [:]

    /// Records a write on `day` (nil for a change to the habit's own row).
    func touch(_ habitID: UUID, day: LocalDay?) {
        switch (touched[habitID], day) {
        case (nil, _): touched[habitID] = .some(day)
        case (.some(.some(let earlier)), .some(let day)): touched[habitID] = .some(min(earlier, day))
        case (.some(.none), .some(let day)): touched[habitID] = .some(day)
        case (.some, .none): break
        }
    }

    init(owner: String) {
        self.owner = .text(owner)
    }

    func discard() { touched.removeAll() }

    /// Bumps each touched habit's change counter, moves its cached answers back to the day before
    /// the earliest day touched, and forgets its cached figures.
    func apply(to database: Database) throws {
        defer { touched.removeAll() }
        for (habitID, day) in touched {
            let id = RowDecoding.idValue(habitID)
            try database.statement("UPDATE habits SET evaluation_generation = evaluation_generation + 1 WHERE owner = ? AND id = ?").run([owner, id])
            if let day {
                // ISO days order as text; a day before the start leaves nothing valid.
                let before = day <= LocalDay.earliest ? SQLValue.text("") : RowDecoding.dayValue(day.adding(days: -1))
                try database.statement("""
                    UPDATE evaluation_cache SET summary_as_of = NULL,
                    valid_through = CASE WHEN valid_through IS NULL OR valid_through < ?1 THEN valid_through ELSE ?1 END
                    WHERE owner = ?2 AND habit_id = ?3
                    """).run([before, owner, id])
            } else {
                try database.statement("UPDATE evaluation_cache SET summary_as_of = NULL WHERE owner = ? AND habit_id = ?").run([owner, id])
            }
        }
    }
}
