import StackDay

/// Every schema step in order. Append new ones; never edit or reorder applied ones.
enum Migrations {
    /// `PRAGMA application_id` marks a file as a StackDay database ("STKD").
    static let applicationID: Int64 = 0x5354_4B44

    static let all: [Migration] = [
        Migration(id: 1, name: "habits, completions and skips", sql: """
        PRAGMA application_id = \(applicationID);
        CREATE TABLE habits (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            name TEXT NOT NULL,
            started_on TEXT NOT NULL,
            archived_on TEXT,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            goal_thousandths INTEGER NOT NULL CHECK (goal_thousandths > 0),
            unit TEXT NOT NULL,
            schedule_policy TEXT NOT NULL,
            schedule_params TEXT NOT NULL,
            progress_policy TEXT NOT NULL,
            progress_params TEXT NOT NULL,
            streak_policy TEXT NOT NULL,
            streak_params TEXT NOT NULL
        ) STRICT;
        CREATE TABLE completions (
            id TEXT PRIMARY KEY,
            habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
            completed_on TEXT NOT NULL,
            recorded_at REAL NOT NULL,
            amount_thousandths INTEGER NOT NULL CHECK (amount_thousandths > 0)
        ) STRICT;
        CREATE INDEX completions_by_habit_day ON completions (habit_id, completed_on, recorded_at);
        CREATE TABLE skips (
            id TEXT PRIMARY KEY,
            habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
            day TEXT NOT NULL,
            recorded_at REAL NOT NULL
        ) STRICT;
        CREATE INDEX skips_by_habit_day ON skips (habit_id, day);
        """),
        // Timelines read each day's total: with the amount in the index, SQLite sums it
        // without visiting the table.
        Migration(id: 2, name: "covering index for daily totals", sql: """
        DROP INDEX completions_by_habit_day;
        CREATE INDEX completions_by_habit_day ON completions (habit_id, completed_on, recorded_at, amount_thousandths);
        """),
        // Finding a habit by name is an index lookup on its key (trimmed, lowercased in Swift:
        // SQLite's lower() folds ASCII only).
        Migration(id: 3, name: "habits by name key", sql: """
        ALTER TABLE habits ADD COLUMN name_key TEXT NOT NULL DEFAULT '';
        CREATE INDEX habits_by_name_key ON habits (name_key);
        """, backfill: { database in
            let names = try database.statement("SELECT id, name FROM habits").rows([]) { ($0.text(0), $0.text(1)) }
            for (id, name) in names {
                try database.statement("UPDATE habits SET name_key = ? WHERE id = ?").run([.text(Habit.nameKey(for: name)), .text(id)])
            }
        }),
            // Policy scripts kept by hash, and each habit's rules as append-only revisions. Every
        // habit gets revision 1 from its own columns, unpinned: the command line pins it to the
        // script its name resolves to on first open (SQL cannot read policy folders). The habit
        // columns keep mirroring the latest revision.
        Migration(id: 4, name: "policy scripts and rule revisions", sql: """
        CREATE TABLE policy_scripts (
            sha256 TEXT PRIMARY KEY CHECK (length(sha256) = 64),
            name TEXT NOT NULL,
            source TEXT NOT NULL,
            installed_at REAL NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE TRIGGER policy_scripts_immutable BEFORE UPDATE ON policy_scripts
        BEGIN SELECT RAISE(ABORT, 'policy scripts are immutable'); END;
        CREATE TABLE habit_revisions (
            habit_id TEXT NOT NULL REFERENCES habits(id) ON DELETE CASCADE,
            number INTEGER NOT NULL CHECK (number >= 1),
            effective_from TEXT NOT NULL,
            goal_thousandths INTEGER NOT NULL CHECK (goal_thousandths > 0),
            schedule_policy TEXT NOT NULL,
            schedule_params TEXT NOT NULL,
            schedule_sha256 TEXT REFERENCES policy_scripts(sha256),
            progress_policy TEXT NOT NULL,
            progress_params TEXT NOT NULL,
            progress_sha256 TEXT REFERENCES policy_scripts(sha256),
            streak_policy TEXT NOT NULL,
            streak_params TEXT NOT NULL,
            streak_sha256 TEXT REFERENCES policy_scripts(sha256),
            created_at REAL NOT NULL,
            PRIMARY KEY (habit_id, number)
        ) STRICT, WITHOUT ROWID;
        CREATE TRIGGER habit_revisions_append_only BEFORE UPDATE ON habit_revisions
        WHEN NEW.habit_id IS NOT OLD.habit_id OR NEW.number IS NOT OLD.number OR NEW.effective_from IS NOT OLD.effective_from
          OR NEW.goal_thousandths IS NOT OLD.goal_thousandths OR NEW.created_at IS NOT OLD.created_at
          OR NEW.schedule_policy IS NOT OLD.schedule_policy OR NEW.schedule_params IS NOT OLD.schedule_params
          OR NEW.progress_policy IS NOT OLD.progress_policy OR NEW.progress_params IS NOT OLD.progress_params
          OR NEW.streak_policy IS NOT OLD.streak_policy OR NEW.streak_params IS NOT OLD.streak_params
          OR (OLD.schedule_sha256 IS NOT NULL AND NEW.schedule_sha256 IS NOT OLD.schedule_sha256)
          OR (OLD.progress_sha256 IS NOT NULL AND NEW.progress_sha256 IS NOT OLD.progress_sha256)
          OR (OLD.streak_sha256 IS NOT NULL AND NEW.streak_sha256 IS NOT OLD.streak_sha256)
        BEGIN SELECT RAISE(ABORT, 'rule revisions are append-only'); END;
        INSERT INTO habit_revisions (habit_id, number, effective_from, goal_thousandths,
            schedule_policy, schedule_params, progress_policy, progress_params, streak_policy, streak_params, created_at)
        SELECT id, 1, started_on, goal_thousandths, schedule_policy, schedule_params, progress_policy, progress_params,
            streak_policy, streak_params, created_at
        FROM habits;
        """),
            // What policies answered, per habit (`CachedEvaluation`), and a per-habit change counter
        // that every write bumps, so that answers computed before a write are never stored after it.
        // Deleting any or every cache row is always safe: it is rebuilt on the next read.
        Migration(id: 5, name: "evaluation cache", sql: """
        ALTER TABLE habits ADD COLUMN evaluation_generation INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE evaluation_cache (
            habit_id TEXT PRIMARY KEY REFERENCES habits(id) ON DELETE CASCADE,
            format INTEGER NOT NULL,
            evaluator TEXT NOT NULL,
            first_day TEXT NOT NULL,
            valid_through TEXT,
            spans TEXT NOT NULL,
            days BLOB NOT NULL,
            checksum INTEGER NOT NULL,
            summary_as_of TEXT,
            summary TEXT
        ) STRICT;
        """),
    ]
}
