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
    ]
}
