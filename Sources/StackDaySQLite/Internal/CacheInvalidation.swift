import Foundation
import StackDay

/// What one write transaction touched (`TouchedHabits`), applied to the SQLite evaluation cache
/// before the transaction commits.
final class CacheInvalidation {
    private let owner: SQLValue
    private var touched = TouchedHabits()

    init(owner: String) {
        self.owner = .text(owner)
    }

    /// Records a write on `day` (nil for a change to the habit's own row).
    func touch(_ habitID: UUID, day: LocalDay?) { touched.touch(habitID, day: day) }

    func discard() { touched.removeAll() }

    /// Bumps each touched habit's change counter, moves its cached answers back to the day before
    /// the earliest day touched, and forgets its cached figures.
    func apply(to database: Database) throws {
        defer { touched.removeAll() }
        for (habitID, day) in touched.days {
            let id = RowDecoding.idValue(habitID)
            try database.statement("UPDATE habits SET evaluation_generation = evaluation_generation + 1 WHERE owner = ? AND id = ?").run([owner, id])
            if let day {
                // ISO days order as text; a day before the start leaves nothing valid (the empty text).
                let before = TouchedHabits.lastValidDay(before: day).map(RowDecoding.dayValue) ?? .text("")
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
