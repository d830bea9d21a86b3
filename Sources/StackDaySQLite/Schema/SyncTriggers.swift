import Foundation
import StackDay
import StackDaySQL

/// The change log sync reads (`SQLSyncRepository`), kept by the store itself whoever writes: once
/// an owner syncs (a row in `sync_owners`), every insert, update or delete of one of its habits,
/// revisions, records, skips or scripts stamps that entity's row in `sync_entities` with the
/// owner's next position, a hybrid logical time and the device that made it (this replica's own,
/// or the one named in `sync_writer` while changes from elsewhere are applied). A deleted entity
/// keeps its row, marked deleted: the tombstone that wins over any later copy of it.
enum SyncTriggers {
    /// The tables, what sync calls their rows, and the SQL of a row's key (`ROW` the row).
    static let tables: [(table: String, kind: String, key: String)] = [
        ("policy_scripts", "script", "ROW.sha256"),
        ("habits", "habit", "ROW.id"),
        ("habit_revisions", "revision", "ROW.habit_id || '/' || ROW.number"),
        ("completions", "completion", "ROW.id"),
        ("skips", "skip", "ROW.id"),
    ]

    /// What one write of an entity does: the owner's position and clock move on, and the entity's
    /// row takes them. Nothing for an owner that does not sync.
    static func stamp(owner: String, kind: String, key: String, deleted: Bool, clock: String = clock, own: Bool = true) -> String {
        let parts = stampStatements(owner: owner, kind: kind, key: key, deleted: deleted, clock: clock, own: own)
        return parts.advance + ";\n" + parts.entry + ";\n"
    }

    /// The wall clock as a hybrid time: milliseconds of Unix time, which counts every day as
    /// 86,400 s (no time zone, no leap seconds), shifted left 16 bits; the same clock as
    /// `SyncStamp.time(at:)` and PostgreSQL's `extract(epoch …)`. Migrations 13 and 14 stamped by it.
    static let wallClock = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536"

    /// The physical part of a hybrid time since migration 15: the store's own clock when one was
    /// given (`sync_clock`, written inside each write transaction and deleted before it commits),
    /// else the wall clock.
    static let clock = "coalesce((SELECT hlc FROM sync_clock), \(wallClock))"

    /// `stamp`'s two statements: `advance` moves the owner's
    /// position and clock on and reads only `owner`; `entry` logs the entity and reads `owner`
    /// and `key`. With `own` (since migration 26), a write of the store's own (no `sync_writer`)
    /// also counts in the owner's `own` and numbers the entry by it (`SyncChange.seq`); migrations
    /// before it wrote the statements without.
    private static func stampStatements(owner: String, kind: String, key: String, deleted: Bool, clock: String = clock,
                                        own: Bool = true) -> (advance: String, entry: String) {
        let local = "NOT EXISTS (SELECT 1 FROM sync_writer)"
        return ("""
        UPDATE sync_owners SET seq = seq + 1,\(own ? " own = own + (\(local))," : "")
            hlc = max(hlc + 1, coalesce((SELECT hlc FROM sync_writer), 0), \(clock))
            WHERE owner = \(owner)
        """, """
        INSERT INTO sync_entities (owner, kind, key, seq, hlc, device, deleted\(own ? ", own" : ""))
            SELECT o.owner, '\(kind)', \(key), o.seq, coalesce((SELECT hlc FROM sync_writer), o.hlc), coalesce((SELECT device FROM sync_writer), o.device), \(deleted ? 1 : 0)\(own ? ", CASE WHEN \(local) THEN o.own END" : "")
            FROM sync_owners AS o WHERE o.owner = \(owner)
            ON CONFLICT (owner, kind, key) DO UPDATE SET seq = excluded.seq, hlc = excluded.hlc, device = excluded.device, deleted = excluded.deleted\(own ? ", own = excluded.own" : "")
        """)
    }

    /// The insert trigger of `table` (completions, skips, whose rows sync calls `kind`), as the
    /// schema has it since migration 36: it does nothing while `sync_deferred` holds a row. A
    /// writer inserting many rows at once puts one there inside its transaction and logs them all
    /// after (`batchStatements`), where the trigger would take half of the inserts' time.
    static func deferrableInsertTrigger(table: String, kind: String) -> String {
        """
        CREATE TRIGGER \(table)_sync_insert AFTER INSERT ON \(table) WHEN NOT EXISTS (SELECT 1 FROM sync_deferred) BEGIN
        \(stamp(owner: "NEW.owner", kind: kind, key: "NEW.id", deleted: false))END
        """
    }

    /// Migration 36: the table that sets the insert triggers of completions and skips aside while
    /// it holds a row, and those triggers made to look at it.
    static let deferrableSQL = """
        CREATE TABLE sync_deferred (deferred INTEGER NOT NULL) STRICT;
        DROP TRIGGER completions_sync_insert;
        \(deferrableInsertTrigger(table: "completions", kind: "completion"));
        DROP TRIGGER skips_sync_insert;
        \(deferrableInsertTrigger(table: "skips", kind: "skip"));
        """

    /// What the insert trigger of `kind`'s table does for many new rows, as two statements run
    /// once after them: `entries` logs the keys of a JSON array (`?2`, in the order inserted) for
    /// owner `?1`, each as the trigger would have, and `advance` then moves the owner's position,
    /// count of its own writes and clock on by `?2` rows. The clock's step is the trigger's,
    /// summed: row i takes `max(hlc + i, floor + i - 1)`, where `floor` is the larger of the
    /// writer's time and the store's clock.
    static func batchStatements(kind: String) -> (entries: String, advance: String) {
        let local = "NOT EXISTS (SELECT 1 FROM sync_writer)"
        let floor = "max(coalesce((SELECT hlc FROM sync_writer), 0), \(clock))"
        return ("""
        INSERT INTO sync_entities (owner, kind, key, seq, hlc, device, deleted, own)
            SELECT o.owner, '\(kind)', k.value, o.seq + k.key + 1, coalesce((SELECT hlc FROM sync_writer), max(o.hlc + k.key + 1, \(floor) + k.key)),
                coalesce((SELECT device FROM sync_writer), o.device), 0, CASE WHEN \(local) THEN o.own + k.key + 1 END
            FROM sync_owners AS o, json_each(?2) AS k WHERE o.owner = ?1
            ON CONFLICT (owner, kind, key) DO UPDATE SET seq = excluded.seq, hlc = excluded.hlc, device = excluded.device, deleted = excluded.deleted, own = excluded.own
        """, """
        UPDATE sync_owners SET seq = seq + ?2, own = own + CASE WHEN \(local) THEN ?2 ELSE 0 END, hlc = max(hlc + ?2, \(floor) + ?2 - 1)
            WHERE owner = ?1
        """)
    }

    /// The log's tables and every trigger, as one script.
    static var sql: String {
        let sql = """
            CREATE TABLE sync_owners (
                owner TEXT PRIMARY KEY,
                device TEXT NOT NULL,
                seq INTEGER NOT NULL,
                hlc INTEGER NOT NULL
            ) STRICT, WITHOUT ROWID;
            CREATE TABLE sync_entities (
                owner TEXT NOT NULL,
                kind TEXT NOT NULL,
                key TEXT NOT NULL,
                seq INTEGER NOT NULL,
                hlc INTEGER NOT NULL,
                device TEXT NOT NULL,
                deleted INTEGER NOT NULL,
                PRIMARY KEY (owner, kind, key)
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX sync_entities_by_seq ON sync_entities (owner, seq);
            CREATE TABLE sync_writer (device TEXT NOT NULL, hlc INTEGER NOT NULL) STRICT;
            CREATE TABLE sync_peers (
                owner TEXT NOT NULL,
                server TEXT NOT NULL,
                pushed_through INTEGER NOT NULL,
                position INTEGER NOT NULL,
                PRIMARY KEY (owner, server)
            ) STRICT, WITHOUT ROWID;

            """
        return sql + triggers(clock: wallClock, fieldStamps: nil, own: false)
    }

    /// Every trigger of the log, stamping by `clock`; with `fieldStamps`, the habit's update
    /// trigger also keeps the stamps of those fields (migration 14's); with `own`, writes of the
    /// store's own are counted (migration 26's).
    static func triggers(clock: String, fieldStamps: [String]?, own: Bool) -> String {
        var sql = ""
        for (table, kind, key) in tables {
            sql += tableTriggers(table: table, kind: kind, key: key, clock: clock, own: own,
                                 update: table == "habits" ? fieldStamps.map { habitUpdateTrigger(clock: clock, fields: $0, own: own) + ";\n" } : nil)
        }
        return sql
    }

    /// A table's three triggers (`update`, when given, in place of the generic update trigger).
    static func tableTriggers(table: String, kind: String, key: String, clock: String, own: Bool, update: String? = nil) -> String {
        var sql = ""
        for (event, row, deleted) in [("INSERT", "NEW", false), ("UPDATE", "NEW", false), ("DELETE", "OLD", true)] {
            if event == "UPDATE", let update {
                sql += update
                continue
            }
            sql += """
                CREATE TRIGGER \(table)_sync_\(event.lowercased()) AFTER \(event) ON \(table) BEGIN
                \(stamp(owner: "\(row).owner", kind: kind, key: key.replacingOccurrences(of: "ROW", with: row), deleted: deleted, clock: clock, own: own))END;

                """
        }
        return sql
    }

    /// Migration 15: the store's clock (`sync_clock`) in every stamp, so that a store given a
    /// clock (tests, a replayed history) orders its writes by it, not by the machine's.
    static var clockSQL: String {
        var sql = "CREATE TABLE sync_clock (hlc INTEGER NOT NULL) STRICT;\n"
        for (table, _, _) in tables {
            for event in ["insert", "update", "delete"] { sql += "DROP TRIGGER \(table)_sync_\(event);\n" }
        }
        return sql + triggers(clock: clock, fieldStamps: SQLSyncStampedColumns.first, own: false)
    }

    /// Migration 26: every write of the store's own counted (`sync_owners.own`) and its entry
    /// numbered by that count (`sync_entities.own`), the number a device's change is known by
    /// however the log moved since (`SyncChange.seq`). An entry logged before has none.
    static var ownSQL: String {
        var sql = """
            ALTER TABLE sync_owners ADD COLUMN own INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE sync_entities ADD COLUMN own INTEGER;

            """
        for (table, _, _) in tables {
            for event in ["insert", "update", "delete"] { sql += "DROP TRIGGER \(table)_sync_\(event);\n" }
        }
        return sql + triggers(clock: clock, fieldStamps: SQLSyncStampedColumns.display, own: true)
    }

    /// Migration 32: groups and their revisions in the log, stamped as every entity is; the groups
    /// of owners who already sync are written again so that they enter it.
    static var groupsSQL: String {
        tableTriggers(table: "habit_groups", kind: "group", key: "ROW.id", clock: clock, own: true)
            + tableTriggers(table: "group_revisions", kind: "groupRevision", key: "ROW.group_id || '/' || ROW.number", clock: clock, own: true)
            + "UPDATE habit_groups SET name = name;\nUPDATE group_revisions SET created_at = created_at;\n"
    }

    /// Migration 29: the habit's update trigger stamping a question and a description too.
    static var habitTextSQL: String {
        "DROP TRIGGER habits_sync_update;\n" + habitUpdateTrigger(clock: clock, fields: SQLSyncStampedColumns.all, own: true) + ";\n"
    }

    /// Migration 14: the stamp of each habit field's last change (`SQLSyncStampedColumns.all`), kept
    /// by the habit's update trigger after it stamps the habit, so that fields merge one by one.
    static var fieldStampsSQL: String {
        """
        CREATE TABLE sync_fields (
            owner TEXT NOT NULL,
            habit TEXT NOT NULL,
            field TEXT NOT NULL,
            hlc INTEGER NOT NULL,
            device TEXT NOT NULL,
            PRIMARY KEY (owner, habit, field)
        ) STRICT, WITHOUT ROWID;
        DROP TRIGGER habits_sync_update;
        \(habitUpdateTrigger(clock: wallClock, fields: SQLSyncStampedColumns.first, own: false));
        """
    }

    /// Migration 23: the habit's update trigger stamping every field of `SQLSyncStampedColumns.display`
    /// (position, colour tag and step joined the first five).
    static var displayFieldsSQL: String {
        "DROP TRIGGER habits_sync_update;\n" + habitUpdateTrigger(clock: clock, fields: SQLSyncStampedColumns.display, own: false) + ";\n"
    }

    /// The habit's update trigger: it stamps the habit, then each of `fields` the update changed.
    static func habitUpdateTrigger(clock: String, fields: [String], own: Bool) -> String {
        var body = stamp(owner: "NEW.owner", kind: "habit", key: "NEW.id", deleted: false, clock: clock, own: own)
        for field in fields {
            body += """
                INSERT INTO sync_fields (owner, habit, field, hlc, device)
                    SELECT e.owner, e.key, '\(field)', e.hlc, e.device FROM sync_entities AS e
                    WHERE e.owner = NEW.owner AND e.kind = 'habit' AND e.key = NEW.id AND OLD.\(field) IS NOT NEW.\(field)
                    ON CONFLICT (owner, habit, field) DO UPDATE SET hlc = excluded.hlc, device = excluded.device;

                """
        }
        return """
            CREATE TRIGGER habits_sync_update AFTER UPDATE ON habits BEGIN
            \(body)END
            """
    }
}
