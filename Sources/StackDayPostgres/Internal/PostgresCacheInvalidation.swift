import Foundation
import StackDay

/// What one write transaction touched (`TouchedHabits`), applied to the PostgreSQL evaluation
/// cache before the transaction commits.
final class PostgresCacheInvalidation {
    private let owner: PostgresValue
    private var touched = TouchedHabits()

    init(owner: String) {
        self.owner = .text(owner)
    }

    /// Records a write on `day` (nil for a change to the habit's own row).
    func touch(_ habitID: UUID, day: LocalDay?) { touched.touch(habitID, day: day) }

    func discard() { touched.removeAll() }

    /// Bumps each touched habit's change counter, moves its cached answers back to the day before
    /// the earliest day touched, and forgets its cached figures.
    func apply(to connection: PostgresConnection) throws {
        defer { touched.removeAll() }
        for (habitID, day) in touched.days {
            let id = PostgresDecoding.id(habitID)
            try connection.execute("UPDATE habits SET evaluation_generation = evaluation_generation + 1 WHERE user_id = $1 AND id = $2::uuid", [owner, id])
            if let day {
                // ISO days order as text; a day before the start leaves nothing valid (the empty text).
                let before = TouchedHabits.lastValidDay(before: day).map(PostgresDecoding.day) ?? .text("")
                try connection.execute("""
                    UPDATE evaluation_cache SET summary_as_of = NULL,
                    valid_through = CASE WHEN valid_through IS NULL OR valid_through < $3 THEN valid_through ELSE $3 END
                    WHERE user_id = $1 AND habit_id = $2::uuid
                    """, [owner, id, before])
            } else {
                try connection.execute("UPDATE evaluation_cache SET summary_as_of = NULL WHERE user_id = $1 AND habit_id = $2::uuid", [owner, id])
            }
        }
    }
}
