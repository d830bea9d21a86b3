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

    /// Each group's cached days and figures (`CachedGroup`), and the triggers that delete a
    /// group's row whenever the group or one of its revisions is written, whoever writes. A
    /// member's writes need no trigger here: they move the member's change counter, which the
    /// row's key names.
    public static let cacheSQLite = """
        CREATE TABLE group_cache (
            owner TEXT NOT NULL,
            group_id TEXT NOT NULL,
            format INTEGER NOT NULL,
            evaluator TEXT NOT NULL,
            inputs_key TEXT NOT NULL,
            body BLOB NOT NULL,
            checksum INTEGER NOT NULL,
            PRIMARY KEY (owner, group_id),
            FOREIGN KEY (owner, group_id) REFERENCES habit_groups (owner, id) ON DELETE CASCADE
        ) STRICT, WITHOUT ROWID;
        CREATE TRIGGER habit_groups_cache_update AFTER UPDATE ON habit_groups BEGIN
            DELETE FROM group_cache WHERE owner = OLD.owner AND group_id = OLD.id;
        END;
        CREATE TRIGGER group_revisions_cache_insert AFTER INSERT ON group_revisions BEGIN
            DELETE FROM group_cache WHERE owner = NEW.owner AND group_id = NEW.group_id;
        END;
        CREATE TRIGGER group_revisions_cache_update AFTER UPDATE ON group_revisions BEGIN
            DELETE FROM group_cache WHERE owner IN (OLD.owner, NEW.owner) AND group_id IN (OLD.group_id, NEW.group_id);
        END;
        CREATE TRIGGER group_revisions_cache_delete AFTER DELETE ON group_revisions BEGIN
            DELETE FROM group_cache WHERE owner = OLD.owner AND group_id = OLD.group_id;
        END;
        """

    /// `cacheSQLite` for PostgreSQL: one trigger function over the rows a statement wrote.
    public static let cachePostgres = [
        """
        CREATE TABLE group_cache (
            user_id text NOT NULL,
            group_id uuid NOT NULL,
            format integer NOT NULL,
            evaluator text NOT NULL,
            inputs_key text NOT NULL,
            body bytea NOT NULL,
            checksum bigint NOT NULL,
            PRIMARY KEY (user_id, group_id),
            FOREIGN KEY (user_id, group_id) REFERENCES habit_groups (user_id, id) ON DELETE CASCADE
        )
        """,
        """
        CREATE FUNCTION stackday_group_cache_clear() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_TABLE_NAME = 'habit_groups' THEN
                DELETE FROM group_cache WHERE user_id = OLD.user_id AND group_id = OLD.id;
            ELSE
                IF TG_OP <> 'INSERT' THEN DELETE FROM group_cache WHERE user_id = OLD.user_id AND group_id = OLD.group_id; END IF;
                IF TG_OP <> 'DELETE' THEN DELETE FROM group_cache WHERE user_id = NEW.user_id AND group_id = NEW.group_id; END IF;
            END IF;
            RETURN NULL;
        END $$
        """,
        "CREATE TRIGGER habit_groups_cache_update AFTER UPDATE ON habit_groups FOR EACH ROW EXECUTE FUNCTION stackday_group_cache_clear()",
        "CREATE TRIGGER group_revisions_cache AFTER INSERT OR UPDATE OR DELETE ON group_revisions FOR EACH ROW EXECUTE FUNCTION stackday_group_cache_clear()",
    ]
}
