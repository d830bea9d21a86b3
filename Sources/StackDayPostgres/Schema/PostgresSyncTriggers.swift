import Foundation
import StackDay
import StackDaySQL

/// The change log sync reads (`SQLSyncRepository`), kept by the store itself whoever writes, as
/// SQLite's `SyncTriggers`: once a user syncs (a row in `sync_owners`), every write of one of its
/// habits, revisions, records, skips or scripts stamps that entity's row in `sync_entities` with
/// the user's next position, a hybrid logical time and the device that made it.
///
/// Records, skips and revisions stamp once per statement over the transition table (a COPY of a
/// million records is one statement); habits and scripts once per row. The update of the user's
/// `sync_owners` row holds its lock to the end of the transaction, so positions are handed out
/// in commit order: a reader that sees position N has every position below it.
enum PostgresSyncTriggers {
    static var statements: [String] {
        var statements = [
            "CREATE TABLE sync_owners (user_id text PRIMARY KEY, device text NOT NULL, seq bigint NOT NULL, hlc bigint NOT NULL)",
            """
            CREATE TABLE sync_entities (
                user_id text NOT NULL, kind text NOT NULL, key text NOT NULL,
                seq bigint NOT NULL, hlc bigint NOT NULL, device text NOT NULL, deleted integer NOT NULL,
                PRIMARY KEY (user_id, kind, key)
            )
            """,
            "CREATE INDEX sync_entities_by_seq ON sync_entities (user_id, seq)",
            // Rows only inside a transaction that applies changes from elsewhere: never committed.
            "CREATE TABLE sync_writer (device text NOT NULL, hlc bigint NOT NULL)",
            """
            CREATE TABLE sync_peers (user_id text NOT NULL, server text NOT NULL, pushed_through bigint NOT NULL, position bigint NOT NULL,
                PRIMARY KEY (user_id, server))
            """,
            stampFunction(clock: wallClock, own: false),
        ]
        for (table, kind, key) in [("completions", "completion", "upper(id::text)"), ("skips", "skip", "upper(id::text)"),
                                   ("habit_revisions", "revision", "upper(habit_id::text) || '/' || number")] {
            statements += statementTriggers(table: table, kind: kind, key: key)
        }
        for (table, kind, key) in [("habits", "habit", "upper(ROW.id::text)"), ("policy_scripts", "script", "ROW.sha256")] {
            statements += rowTrigger(table: table, kind: kind, key: key)
        }
        return statements
    }

    /// Triggers stamping a table's writes once per statement, over its transition tables.
    static func statementTriggers(table: String, kind: String, key: String) -> [String] {
        [("INSERT", "new_rows", false), ("UPDATE", "new_rows", false), ("DELETE", "old_rows", true)].flatMap { event, rows, gone in
            let function = "stackday_sync_\(table)_\(event.lowercased())d"
            let referencing = rows == "new_rows" ? "NEW TABLE AS new_rows" : "OLD TABLE AS old_rows"
            return [
                """
                CREATE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM stackday_sync_stamp(user_id, '\(kind)', array_agg(\(key)), \(gone)) FROM \(rows)
                        WHERE user_id IN (SELECT user_id FROM sync_owners) GROUP BY user_id;
                    RETURN NULL;
                END $$
                """,
                "CREATE TRIGGER \(table)_sync_\(event.lowercased()) AFTER \(event) ON \(table) REFERENCING \(referencing) FOR EACH STATEMENT EXECUTE FUNCTION \(function)()",
            ]
        }
    }

    /// A trigger stamping each row a write touches (`ROW` in `key` the row).
    static func rowTrigger(table: String, kind: String, key: String) -> [String] {
        let function = "stackday_sync_\(table)_changed"
        return [
            """
            CREATE FUNCTION \(function)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'DELETE' THEN
                    PERFORM stackday_sync_stamp(OLD.user_id, '\(kind)', ARRAY[\(key.replacingOccurrences(of: "ROW", with: "OLD"))], true);
                ELSE
                    PERFORM stackday_sync_stamp(NEW.user_id, '\(kind)', ARRAY[\(key.replacingOccurrences(of: "ROW", with: "NEW"))], false);
                END IF;
                RETURN NULL;
            END $$
            """,
            "CREATE TRIGGER \(table)_sync AFTER INSERT OR UPDATE OR DELETE ON \(table) FOR EACH ROW EXECUTE FUNCTION \(function)()",
        ]
    }

    /// Migration 27: groups and their revisions in the log, as SQLite's migration 32 (the name no
    /// longer unique: the server settles two of one name, as for habits); the groups of users who
    /// already sync are written again so that they enter it.
    static var groupStatements: [String] {
        [
            """
            DO $$ DECLARE unique_name text; BEGIN
                SELECT conname INTO unique_name FROM pg_constraint WHERE conrelid = 'habit_groups'::regclass AND contype = 'u';
                IF unique_name IS NOT NULL THEN EXECUTE format('ALTER TABLE habit_groups DROP CONSTRAINT %I', unique_name); END IF;
            END $$
            """,
            "CREATE INDEX habit_groups_by_name_key ON habit_groups (user_id, name_key)",
        ]
        + rowTrigger(table: "habit_groups", kind: "group", key: "upper(ROW.id::text)")
            + statementTriggers(table: "group_revisions", kind: "groupRevision", key: "upper(group_id::text) || '/' || number")
            + ["UPDATE habit_groups SET name = name", "UPDATE group_revisions SET created_at = created_at"]
    }

    /// The wall clock as a hybrid time (milliseconds of Unix time shifted left 16 bits), as
    /// SQLite's `SyncTriggers.wallClock`. Migration 8 stamped by it.
    static let wallClock = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint << 16"

    /// Since migration 10: the store's clock when it was given one (a row of `sync_clock`, written
    /// inside the transaction and never committed), else the wall clock.
    static let clock = "coalesce((SELECT hlc FROM sync_clock LIMIT 1), \(wallClock))"

    /// Migration 10: the store's clock in every stamp, as SQLite's migration 15.
    static var clockStatements: [String] {
        // Rows only inside a write transaction of a store given a clock: never committed.
        ["CREATE TABLE sync_clock (hlc bigint NOT NULL)", stampFunction(clock: clock, own: false)]
    }

    /// Migration 21: writes of the store's own counted, as SQLite's migration 26.
    static var ownStatements: [String] {
        ["ALTER TABLE sync_owners ADD COLUMN own bigint NOT NULL DEFAULT 0", "ALTER TABLE sync_entities ADD COLUMN own bigint",
         stampFunction(clock: clock, own: true)]
    }

    /// The function every trigger stamps through: the user's position and hybrid clock move on
    /// (by `clock`, an SQL expression), and each written key's log row takes them; with `own`,
    /// writes of the store's own (no `sync_writer` row) also count in `own` and number their rows by it.
    static func stampFunction(clock: String, own: Bool) -> String {
        let counted = own ? " own = own + CASE WHEN writer.device IS NULL THEN key_count ELSE 0 END," : ""
        let ownColumn = own ? ", own" : "", ownValue = own ? ", CASE WHEN writer.device IS NULL THEN stamped.own - key_count + written.n END" : ""
        let ownUpdate = own ? ", own = excluded.own" : ""
        return """
        CREATE OR REPLACE FUNCTION stackday_sync_stamp(stamped_user text, stamped_kind text, keys text[], gone boolean) RETURNS void LANGUAGE plpgsql AS $$
        DECLARE
            stamped sync_owners%ROWTYPE;
            writer sync_writer%ROWTYPE;
            key_count bigint := cardinality(keys);
        BEGIN
            IF key_count = 0 THEN RETURN; END IF;
            SELECT * INTO writer FROM sync_writer LIMIT 1;
            UPDATE sync_owners SET seq = seq + key_count,\(counted)
                hlc = greatest(hlc + 1, coalesce(writer.hlc, 0), \(clock))
                WHERE user_id = stamped_user RETURNING * INTO stamped;
            IF NOT FOUND THEN RETURN; END IF;
            INSERT INTO sync_entities (user_id, kind, key, seq, hlc, device, deleted\(ownColumn))
                SELECT stamped_user, stamped_kind, written.key, stamped.seq - key_count + written.n, coalesce(writer.hlc, stamped.hlc),
                    coalesce(writer.device, stamped.device), CASE WHEN gone THEN 1 ELSE 0 END\(ownValue)
                FROM unnest(keys) WITH ORDINALITY AS written(key, n)
                ON CONFLICT (user_id, kind, key) DO UPDATE SET seq = excluded.seq, hlc = excluded.hlc, device = excluded.device, deleted = excluded.deleted\(ownUpdate);
        END $$
        """
    }

    /// Migration 9: the stamp of each habit field's last change, as SQLite's migration 14.
    static var fieldStamps: [String] {
        [
            """
            CREATE TABLE sync_fields (user_id text NOT NULL, habit text NOT NULL, field text NOT NULL, hlc bigint NOT NULL, device text NOT NULL,
                PRIMARY KEY (user_id, habit, field))
            """,
            habitsChanged(fields: SQLSyncStampedColumns.first),
        ]
    }

    /// The habit trigger's function: it stamps the habit, then on an update each of `fields` that
    /// changed. Migration 9 made it with `SQLSyncStampedColumns.first`; migration 18 with them all.
    static func habitsChanged(fields: [String]) -> String {
        let stamps = fields.map { field in
            """
                    INSERT INTO sync_fields (user_id, habit, field, hlc, device)
                        SELECT e.user_id, e.key, '\(field)', e.hlc, e.device FROM sync_entities AS e
                        WHERE e.user_id = NEW.user_id AND e.kind = 'habit' AND e.key = upper(NEW.id::text) AND OLD.\(field) IS DISTINCT FROM NEW.\(field)
                        ON CONFLICT (user_id, habit, field) DO UPDATE SET hlc = excluded.hlc, device = excluded.device;
            """
        }.joined(separator: "\n")
        return """
            CREATE OR REPLACE FUNCTION stackday_sync_habits_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'DELETE' THEN
                    PERFORM stackday_sync_stamp(OLD.user_id, 'habit', ARRAY[upper(OLD.id::text)], true);
                ELSE
                    PERFORM stackday_sync_stamp(NEW.user_id, 'habit', ARRAY[upper(NEW.id::text)], false);
                END IF;
                IF TG_OP = 'UPDATE' THEN
            \(stamps)
                END IF;
                RETURN NULL;
            END $$
            """
    }
}
