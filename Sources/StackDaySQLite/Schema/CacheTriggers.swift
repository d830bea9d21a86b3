import StackDaySQL

/// The triggers that keep the evaluation cache true whoever writes (StackDay, the `sqlite3`
/// shell, another program): a write to a completion, skip, rule revision, habit or stored script
/// bumps the habit's change counter (`habit_generations`), moves its cached answers back to the day before the earliest
/// day written, and clears its cached figures, in the writing transaction.
enum CacheTriggers {
    /// What one row's write on `day` (an SQL expression; nil for the habit's own row) does to
    /// the habit's cache.
    static func touch(owner: String, habit: String, day: String?) -> String {
        bump(owner: owner, habit: habit) + ";\n" + invalidation(owner: owner, habit: habit, day: day) + ";\n"
    }

    /// Moves the habit's change counter on.
    static func bump(owner: String, habit: String) -> String {
        "UPDATE habit_generations SET generation = generation + 1 WHERE owner = \(owner) AND habit_id = \(habit)"
    }

    /// Clears the habit's cached figures and, for a write on `day`, its answers from that day on;
    /// for the habit's own row, only `when` the condition holds, if one is given.
    static func invalidation(owner: String, habit: String, day: String?, when condition: String? = nil) -> String {
        guard let day else {
            return "UPDATE evaluation_cache SET summary_as_of = NULL WHERE owner = \(owner) AND habit_id = \(habit)"
                + (condition.map { "\n    AND (\($0))" } ?? "")
        }
        // ISO days order as text; a write on the first supported day leaves nothing valid ('').
        return """
            UPDATE evaluation_cache SET summary_as_of = NULL,
                valid_through = CASE WHEN valid_through IS NULL OR valid_through < \(day) THEN valid_through
                                     WHEN \(day) <= '0001-01-01' THEN '' ELSE date(\(day), '-1 day') END
                WHERE owner = \(owner) AND habit_id = \(habit)
            """
    }

    /// Moves the owner's change counter (`owner_changes`) on by `step`.
    static func bumpOwner(_ owner: String, by step: String = "1") -> String {
        """
        INSERT OR IGNORE INTO owner_changes (owner, generation) VALUES (\(owner), 0);
        UPDATE owner_changes SET generation = generation + \(step) WHERE owner = \(owner);

        """
    }

    /// The habits of `owner` whose rules name the script `sha256` in any revision.
    static func habitsUsing(owner: String, sha256: String) -> String {
        "SELECT habit_id FROM habit_revisions WHERE owner = \(owner) AND \(sha256) IN (schedule_sha256, progress_sha256, streak_sha256)"
    }

    /// The trigger on each new row of `table` (completions, skips), written on the day in its
    /// column `day`. A `deferrable` one (since migration 35) does nothing while `cache_deferred`
    /// holds a row: a writer inserting many rows at once puts one there inside its transaction and
    /// touches each habit once after them (`SQLiteBulkCompletions.insertingOnce`), where
    /// firing it row by row would take a third of a first sync's time on the server.
    static func insertTrigger(_ table: String, day: String, deferrable: Bool) -> String {
        """
        CREATE TRIGGER \(table)_cache_insert AFTER INSERT ON \(table)\(deferrable ? " WHEN NOT EXISTS (SELECT 1 FROM cache_deferred)" : "") BEGIN
        \(touch(owner: "NEW.owner", habit: "NEW.habit_id", day: "NEW.\(day)"))END
        """
    }

    /// Migration 37: an update of a habit's row moves its counter on as before (kept answers and
    /// group figures show its name and place), and clears its figures only when one of
    /// `SQLEvaluatedColumns.habit` changed. A habit renamed or moved in the list keeps them: a push that
    /// settles places renumbers every habit after the first it moves, and each would otherwise be
    /// evaluated again before the push is answered.
    static let habitUpdateSQL = """
        DROP TRIGGER habits_cache_update;
        CREATE TRIGGER habits_cache_update AFTER UPDATE ON habits BEGIN
        \(bump(owner: "NEW.owner", habit: "NEW.id"));
        \(invalidation(owner: "NEW.owner", habit: "NEW.id", day: nil,
                       when: SQLEvaluatedColumns.habit.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")));
        END;
        """

    /// Migration 35: the table that sets the insert triggers of completions and skips aside while
    /// it holds a row, and those triggers made to look at it.
    static let deferrableSQL = """
        CREATE TABLE cache_deferred (deferred INTEGER NOT NULL) STRICT;
        DROP TRIGGER completions_cache_insert;
        \(insertTrigger("completions", day: "completed_on", deferrable: true));
        DROP TRIGGER skips_cache_insert;
        \(insertTrigger("skips", day: "day", deferrable: true));
        """

    /// The counters' table, filled for the habits there are, and every trigger, as one script.
    static var sql: String {
        var sql = """
            CREATE TABLE habit_generations (
                owner TEXT NOT NULL,
                habit_id TEXT NOT NULL,
                generation INTEGER NOT NULL,
                PRIMARY KEY (owner, habit_id),
                FOREIGN KEY (owner, habit_id) REFERENCES habits (owner, id) ON DELETE CASCADE
            ) STRICT, WITHOUT ROWID;
            INSERT INTO habit_generations (owner, habit_id, generation) SELECT owner, id, evaluation_generation FROM habits;

            """
        for (table, day) in [("completions", "completed_on"), ("skips", "day"), ("habit_revisions", "effective_from")] {
            // As migration 10 made them; migration 35 makes those of completions and skips deferrable.
            sql += insertTrigger(table, day: day, deferrable: false) + ";\n"
            sql += """
                CREATE TRIGGER \(table)_cache_delete AFTER DELETE ON \(table) BEGIN
                \(touch(owner: "OLD.owner", habit: "OLD.habit_id", day: "OLD.\(day)"))END;
                CREATE TRIGGER \(table)_cache_update AFTER UPDATE ON \(table) BEGIN
                \(touch(owner: "OLD.owner", habit: "OLD.habit_id", day: "OLD.\(day)"))\(touch(owner: "NEW.owner", habit: "NEW.habit_id", day: "NEW.\(day)"))END;

                """
        }
        for (event, row) in [("INSERT", "NEW"), ("DELETE", "OLD")] {
            let habits = habitsUsing(owner: "\(row).owner", sha256: "\(row).sha256")
            sql += """
                CREATE TRIGGER policy_scripts_cache_\(event.lowercased()) AFTER \(event) ON policy_scripts BEGIN
                UPDATE habit_generations SET generation = generation + 1 WHERE owner = \(row).owner AND habit_id IN (\(habits));
                UPDATE evaluation_cache SET valid_through = NULL, summary_as_of = NULL WHERE owner = \(row).owner AND habit_id IN (\(habits));
                \(bumpOwner("\(row).owner"))END;

                """
        }
        // A habit's counter lives beside it, not in its row: PostgreSQL's foreign key checks of a
        // large import would otherwise walk every version of the row its triggers update.
        sql += """
            CREATE TRIGGER habits_cache_update AFTER UPDATE ON habits BEGIN
            \(touch(owner: "NEW.owner", habit: "NEW.id", day: nil))END;
            CREATE TRIGGER habits_cache_insert AFTER INSERT ON habits BEGIN
            INSERT OR IGNORE INTO habit_generations (owner, habit_id, generation) VALUES (NEW.owner, NEW.id, 0);
            \(bumpOwner("NEW.owner"))END;
            CREATE TRIGGER habits_cache_delete BEFORE DELETE ON habits BEGIN
            \(bumpOwner("OLD.owner", by: "coalesce((SELECT generation FROM habit_generations WHERE owner = OLD.owner AND habit_id = OLD.id), 0) + 1"))END;

            """
        return sql
    }
}
