import StackDaySQL

/// The trigger functions that keep the evaluation cache true whoever writes (StackDay, `psql`,
/// another program), as SQLite's `CacheTriggers` do: a write to a completion, skip, rule revision,
/// habit or stored script bumps the habit's change counter (`habit_generations`), moves its cached answers back to the
/// day before the earliest day written, and clears its cached figures, in the writing transaction.
///
/// Completions, skips and revisions fire once per statement over its transition table (one update
/// per habit however many rows a COPY brings); habits and scripts once per row.
enum PostgresCacheTriggers {
    /// The function behind the habits' triggers, made by `create` (`CREATE FUNCTION` or
    /// `CREATE OR REPLACE FUNCTION`); `onUpdate` is what an update of a habit's row does.
    static func habitChanged(create: String, onUpdate: String) -> String {
        """
        \(create) stackday_habit_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'UPDATE' THEN
                \(onUpdate)
            ELSIF TG_OP = 'INSERT' THEN
                INSERT INTO habit_generations (user_id, habit_id, generation) VALUES (NEW.user_id, NEW.id, 0) ON CONFLICT DO NOTHING;
                PERFORM stackday_bump_owner(NEW.user_id, 1);
            ELSE
                -- Before the row goes (and its counter with it): the user's count moves on by it.
                PERFORM stackday_bump_owner(OLD.user_id, coalesce((SELECT generation FROM habit_generations
                    WHERE user_id = OLD.user_id AND habit_id = OLD.id), 0) + 1);
                RETURN OLD;
            END IF;
            RETURN NULL;
        END $$
        """
    }

    /// Migration 30, as SQLite's `CacheTriggers.habitUpdateSQL`: an update of a habit's row moves
    /// its counter on, and clears its figures only when what its policies are given changed.
    static var habitUpdateStatements: [String] {
        let moved = SQLEvaluatedColumns.habit.map { "OLD.\($0) IS DISTINCT FROM NEW.\($0)" }.joined(separator: " OR ")
        return [habitChanged(create: "CREATE OR REPLACE FUNCTION", onUpdate: """
            IF \(moved) THEN
                    PERFORM stackday_touch(NEW.user_id, NEW.id, NULL);
                ELSE
                    UPDATE habit_generations SET generation = generation + 1 WHERE user_id = NEW.user_id AND habit_id = NEW.id;
                END IF;
            """)]
    }

    /// Each trigger's statements, in order.
    static var statements: [String] {
        var statements = [
            // A habit's counter lives beside it, not in its row: the foreign key check of each
            // completion a COPY brings would otherwise walk every version of the habit's row that
            // the statement triggers before it left in the same transaction.
            """
            CREATE TABLE habit_generations (
                user_id text NOT NULL,
                habit_id uuid NOT NULL,
                generation bigint NOT NULL,
                PRIMARY KEY (user_id, habit_id),
                FOREIGN KEY (user_id, habit_id) REFERENCES habits (user_id, id) ON DELETE CASCADE
            )
            """,
            "INSERT INTO habit_generations (user_id, habit_id, generation) SELECT user_id, id, evaluation_generation FROM habits",
            "ALTER TABLE habits DROP COLUMN evaluation_generation",
            """
            CREATE FUNCTION stackday_touch(touched_user text, touched_habit uuid, touched_day date) RETURNS void LANGUAGE sql AS $$
                UPDATE habit_generations SET generation = generation + 1 WHERE user_id = touched_user AND habit_id = touched_habit;
                UPDATE evaluation_cache SET summary_as_of = NULL,
                    valid_through = CASE WHEN touched_day IS NULL OR valid_through IS NULL OR valid_through < to_char(touched_day, 'YYYY-MM-DD') THEN valid_through
                                         WHEN touched_day <= DATE '0001-01-01' THEN '' ELSE to_char(touched_day - 1, 'YYYY-MM-DD') END
                    WHERE user_id = touched_user AND habit_id = touched_habit;
            $$
            """,
            """
            CREATE FUNCTION stackday_bump_owner(touched_user text, step bigint) RETURNS void LANGUAGE sql AS $$
                INSERT INTO owner_changes (user_id, generation) VALUES (touched_user, step)
                ON CONFLICT (user_id) DO UPDATE SET generation = owner_changes.generation + step;
            $$
            """,
        ]
        for (table, day) in [("completions", "completed_on"), ("skips", "day"), ("habit_revisions", "effective_from")] {
            for (event, rows) in [("INSERT", ["new_rows"]), ("DELETE", ["old_rows"]), ("UPDATE", ["old_rows", "new_rows"])] {
                let function = "stackday_\(table)_\(event.lowercased())d"
                let union = rows.map { "SELECT user_id, habit_id, \(day) AS day FROM \($0)" }.joined(separator: " UNION ALL ")
                let referencing = rows.map { $0 == "new_rows" ? "NEW TABLE AS new_rows" : "OLD TABLE AS old_rows" }.joined(separator: " ")
                statements += [
                    """
                    CREATE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        PERFORM stackday_touch(user_id, habit_id, min(day)) FROM (\(union)) AS written GROUP BY user_id, habit_id;
                        RETURN NULL;
                    END $$
                    """,
                    "CREATE TRIGGER \(table)_cache_\(event.lowercased()) AFTER \(event) ON \(table) REFERENCING \(referencing) FOR EACH STATEMENT EXECUTE FUNCTION \(function)()",
                ]
            }
        }
        statements += [
            // The counter's own update does not count as a change to the habit.
            habitChanged(create: "CREATE FUNCTION", onUpdate: "PERFORM stackday_touch(NEW.user_id, NEW.id, NULL);"),
            "CREATE TRIGGER habits_cache_update AFTER UPDATE ON habits FOR EACH ROW EXECUTE FUNCTION stackday_habit_changed()",
            "CREATE TRIGGER habits_cache_insert AFTER INSERT ON habits FOR EACH ROW EXECUTE FUNCTION stackday_habit_changed()",
            "CREATE TRIGGER habits_cache_delete BEFORE DELETE ON habits FOR EACH ROW EXECUTE FUNCTION stackday_habit_changed()",
            // A script put back under a hash (deleted, then inserted with other text) invalidates
            // every habit whose rules name it: the next read runs it again, and its check.
            """
            CREATE FUNCTION stackday_script_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                script policy_scripts%ROWTYPE;
            BEGIN
                IF TG_OP = 'DELETE' THEN script := OLD; ELSE script := NEW; END IF;
                UPDATE habit_generations SET generation = generation + 1
                    WHERE user_id = script.user_id AND habit_id IN (SELECT habit_id FROM habit_revisions WHERE user_id = script.user_id
                        AND script.sha256 IN (schedule_sha256, progress_sha256, streak_sha256));
                UPDATE evaluation_cache SET valid_through = NULL, summary_as_of = NULL
                    WHERE user_id = script.user_id AND habit_id IN (SELECT habit_id FROM habit_revisions WHERE user_id = script.user_id
                        AND script.sha256 IN (schedule_sha256, progress_sha256, streak_sha256));
                PERFORM stackday_bump_owner(script.user_id, 1);
                RETURN NULL;
            END $$
            """,
            "CREATE TRIGGER policy_scripts_cache AFTER INSERT OR DELETE ON policy_scripts FOR EACH ROW EXECUTE FUNCTION stackday_script_changed()",
        ]
        return statements
    }
}
