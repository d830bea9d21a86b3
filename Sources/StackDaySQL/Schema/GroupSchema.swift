import StackDay

/// The tables of groups (`HabitGroup`) and their revisions, the same in both stores but for the
/// owner's column and the types of ids and days. A revision's members are its habits' ids in the
/// group's order, joined by commas: a habit removed later is left out when the group is read.
public enum GroupSchema {
    public static let sqlite = """
        CREATE TABLE habit_groups (
            owner TEXT NOT NULL,
            id TEXT NOT NULL,
            name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND \(Habit.nameLimit)),
            name_key TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (owner, id),
            UNIQUE (owner, name_key)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE group_revisions (
            owner TEXT NOT NULL,
            group_id TEXT NOT NULL,
            number INTEGER NOT NULL CHECK (number >= 1),
            effective_from TEXT NOT NULL,
            members TEXT NOT NULL CHECK (length(members) >= 36),
            group_policy TEXT NOT NULL,
            group_params TEXT NOT NULL,
            group_sha256 TEXT,
            streak_policy TEXT NOT NULL,
            streak_params TEXT NOT NULL,
            streak_sha256 TEXT,
            created_at REAL NOT NULL,
            takes_back INTEGER CHECK (takes_back IS NULL OR (takes_back >= 1 AND takes_back < number)),
            PRIMARY KEY (owner, group_id, number),
            FOREIGN KEY (owner, group_id) REFERENCES habit_groups (owner, id) ON DELETE CASCADE
        ) STRICT, WITHOUT ROWID;
        """

    public static let postgres = [
        """
        CREATE TABLE habit_groups (
            user_id text NOT NULL,
            id uuid NOT NULL,
            name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND \(Habit.nameLimit)),
            name_key text NOT NULL,
            created_at double precision NOT NULL,
            PRIMARY KEY (user_id, id),
            UNIQUE (user_id, name_key)
        )
        """,
        """
        CREATE TABLE group_revisions (
            user_id text NOT NULL,
            group_id uuid NOT NULL,
            number integer NOT NULL CHECK (number >= 1),
            effective_from date NOT NULL,
            members text NOT NULL CHECK (char_length(members) >= 36),
            group_policy text NOT NULL, group_params text NOT NULL, group_sha256 text,
            streak_policy text NOT NULL, streak_params text NOT NULL, streak_sha256 text,
            created_at double precision NOT NULL,
            takes_back integer CHECK (takes_back IS NULL OR (takes_back >= 1 AND takes_back < number)),
            PRIMARY KEY (user_id, group_id, number),
            FOREIGN KEY (user_id, group_id) REFERENCES habit_groups (user_id, id) ON DELETE CASCADE
        )
        """,
    ]
}
