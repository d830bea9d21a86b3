import StackDaySQL
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
        // Owners: every row belongs to one user, and the owner leads every key, as on PostgreSQL, so
        // two users can hold the same archive (same ids) side by side. SQLite cannot change a key
        // in place: each table is rebuilt and its rows copied, owned by `default`. Cached
        // evaluations are dropped (they are rebuilt on the next read).
        Migration(id: 6, name: "owners", sql: """
        CREATE TABLE new_habits (
            seq INTEGER PRIMARY KEY,
            owner TEXT NOT NULL,
            id TEXT NOT NULL,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL,
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
            streak_params TEXT NOT NULL,
            evaluation_generation INTEGER NOT NULL DEFAULT 0,
            UNIQUE (owner, id)
        ) STRICT;
        INSERT INTO new_habits (seq, owner, id, name, name_key, started_on, archived_on, created_at, updated_at, goal_thousandths, unit,
            schedule_policy, schedule_params, progress_policy, progress_params, streak_policy, streak_params, evaluation_generation)
        SELECT seq, 'default', id, name, name_key, started_on, archived_on, created_at, updated_at, goal_thousandths, unit,
            schedule_policy, schedule_params, progress_policy, progress_params, streak_policy, streak_params, evaluation_generation
        FROM habits;

        CREATE TABLE new_completions (
            owner TEXT NOT NULL,
            id TEXT NOT NULL,
            habit_id TEXT NOT NULL,
            completed_on TEXT NOT NULL,
            recorded_at REAL NOT NULL,
            amount_thousandths INTEGER NOT NULL CHECK (amount_thousandths > 0),
            PRIMARY KEY (owner, id),
            FOREIGN KEY (owner, habit_id) REFERENCES habits (owner, id) ON DELETE CASCADE
        ) STRICT;
        INSERT INTO new_completions (rowid, owner, id, habit_id, completed_on, recorded_at, amount_thousandths)
        SELECT rowid, 'default', id, habit_id, completed_on, recorded_at, amount_thousandths FROM completions;

        CREATE TABLE new_skips (
            owner TEXT NOT NULL,
            id TEXT NOT NULL,
            habit_id TEXT NOT NULL,
            day TEXT NOT NULL,
            recorded_at REAL NOT NULL,
            PRIMARY KEY (owner, id),
            FOREIGN KEY (owner, habit_id) REFERENCES habits (owner, id) ON DELETE CASCADE
        ) STRICT;
        INSERT INTO new_skips (rowid, owner, id, habit_id, day, recorded_at)
        SELECT rowid, 'default', id, habit_id, day, recorded_at FROM skips;

        CREATE TABLE new_policy_scripts (
            owner TEXT NOT NULL,
            sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
            name TEXT NOT NULL,
            source TEXT NOT NULL,
            installed_at REAL NOT NULL,
            PRIMARY KEY (owner, sha256)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO new_policy_scripts (owner, sha256, name, source, installed_at)
        SELECT 'default', sha256, name, source, installed_at FROM policy_scripts;

        CREATE TABLE new_habit_revisions (
            owner TEXT NOT NULL,
            habit_id TEXT NOT NULL,
            number INTEGER NOT NULL CHECK (number >= 1),
            effective_from TEXT NOT NULL,
            goal_thousandths INTEGER NOT NULL CHECK (goal_thousandths > 0),
            schedule_policy TEXT NOT NULL,
            schedule_params TEXT NOT NULL,
            schedule_sha256 TEXT,
            progress_policy TEXT NOT NULL,
            progress_params TEXT NOT NULL,
            progress_sha256 TEXT,
            streak_policy TEXT NOT NULL,
            streak_params TEXT NOT NULL,
            streak_sha256 TEXT,
            created_at REAL NOT NULL,
            PRIMARY KEY (owner, habit_id, number),
            FOREIGN KEY (owner, habit_id) REFERENCES habits (owner, id) ON DELETE CASCADE,
            FOREIGN KEY (owner, schedule_sha256) REFERENCES policy_scripts (owner, sha256),
            FOREIGN KEY (owner, progress_sha256) REFERENCES policy_scripts (owner, sha256),
            FOREIGN KEY (owner, streak_sha256) REFERENCES policy_scripts (owner, sha256)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO new_habit_revisions SELECT 'default', habit_id, number, effective_from, goal_thousandths,
            schedule_policy, schedule_params, schedule_sha256, progress_policy, progress_params, progress_sha256,
            streak_policy, streak_params, streak_sha256, created_at
        FROM habit_revisions;

        CREATE TABLE new_evaluation_cache (
            owner TEXT NOT NULL,
            habit_id TEXT NOT NULL,
            format INTEGER NOT NULL,
            evaluator TEXT NOT NULL,
            first_day TEXT NOT NULL,
            valid_through TEXT,
            spans TEXT NOT NULL,
            days BLOB NOT NULL,
            checksum INTEGER NOT NULL,
            summary_as_of TEXT,
            summary TEXT,
            PRIMARY KEY (owner, habit_id),
            FOREIGN KEY (owner, habit_id) REFERENCES habits (owner, id) ON DELETE CASCADE
        ) STRICT;

        DROP TABLE evaluation_cache;
        DROP TABLE habit_revisions;
        DROP TABLE policy_scripts;
        DROP TABLE skips;
        DROP TABLE completions;
        DROP TABLE habits;
        ALTER TABLE new_habits RENAME TO habits;
        ALTER TABLE new_completions RENAME TO completions;
        ALTER TABLE new_skips RENAME TO skips;
        ALTER TABLE new_policy_scripts RENAME TO policy_scripts;
        ALTER TABLE new_habit_revisions RENAME TO habit_revisions;
        ALTER TABLE new_evaluation_cache RENAME TO evaluation_cache;

        CREATE INDEX habits_by_name_key ON habits (owner, name_key);
        CREATE INDEX completions_by_habit_day ON completions (owner, habit_id, completed_on, recorded_at, amount_thousandths);
        CREATE INDEX skips_by_habit_day ON skips (owner, habit_id, day);
        CREATE TRIGGER policy_scripts_immutable BEFORE UPDATE ON policy_scripts
        BEGIN SELECT RAISE(ABORT, 'policy scripts are immutable'); END;
        CREATE TRIGGER habit_revisions_append_only BEFORE UPDATE ON habit_revisions
        WHEN NEW.owner IS NOT OLD.owner OR NEW.habit_id IS NOT OLD.habit_id OR NEW.number IS NOT OLD.number
          OR NEW.effective_from IS NOT OLD.effective_from
          OR NEW.goal_thousandths IS NOT OLD.goal_thousandths OR NEW.created_at IS NOT OLD.created_at
          OR NEW.schedule_policy IS NOT OLD.schedule_policy OR NEW.schedule_params IS NOT OLD.schedule_params
          OR NEW.progress_policy IS NOT OLD.progress_policy OR NEW.progress_params IS NOT OLD.progress_params
          OR NEW.streak_policy IS NOT OLD.streak_policy OR NEW.streak_params IS NOT OLD.streak_params
          OR (OLD.schedule_sha256 IS NOT NULL AND NEW.schedule_sha256 IS NOT OLD.schedule_sha256)
          OR (OLD.progress_sha256 IS NOT NULL AND NEW.progress_sha256 IS NOT OLD.progress_sha256)
          OR (OLD.streak_sha256 IS NOT NULL AND NEW.streak_sha256 IS NOT OLD.streak_sha256)
        BEGIN SELECT RAISE(ABORT, 'rule revisions are append-only'); END;
        """, rebuildsTables: true),
        // The users a service answers for: the name is the owner of their rows; only the token's
        // hash is kept. Users are not owned: the table is the store's.
        Migration(id: 7, name: "users", sql: """
        CREATE TABLE users (
            name TEXT PRIMARY KEY,
            token_sha256 TEXT NOT NULL UNIQUE CHECK (length(token_sha256) = 64),
            time_zone TEXT NOT NULL,
            day_start_minutes INTEGER NOT NULL CHECK (day_start_minutes BETWEEN 0 AND 1439),
            created_at REAL NOT NULL
        ) STRICT;
        """),
        // A counter per owner that every write transaction of that owner bumps: a server keeps an
        // owner's answers until it moves (`HabitStore.changeCount`).
        Migration(id: 8, name: "owner change counters", sql: """
        CREATE TABLE owner_changes (
            owner TEXT PRIMARY KEY,
            generation INTEGER NOT NULL
        ) STRICT, WITHOUT ROWID;
        """),
        // Browser sessions (only the SHA-256 of the cookie's id is kept) and the language of a
        // user's pages.
        Migration(id: 9, name: "sessions and languages", sql: """
        ALTER TABLE users ADD COLUMN language TEXT CHECK (language IN ('en', 'ko'));
        CREATE TABLE sessions (
            id_sha256 TEXT PRIMARY KEY CHECK (length(id_sha256) = 64),
            user_name TEXT NOT NULL,
            csrf_token TEXT NOT NULL,
            created_at REAL NOT NULL,
            expires_at REAL NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX sessions_by_user ON sessions (user_name);
        """),
        // The cache kept true by the store itself (`CacheTriggers`), whoever writes; rows of the
        // earlier format (not bound to their owner and habit) are dropped.
        Migration(id: 10, name: "cache invalidation by triggers", sql: "DELETE FROM evaluation_cache;\n" + CacheTriggers.sql),
        // The rules live in `habit_revisions` only, as on PostgreSQL: the habit row's copies of the
        // latest revision's go, so one set of statements serves both stores (`StackDaySQL`); so
        // does the change counter, kept in `habit_generations` since migration 10.
        Migration(id: 11, name: "habits without copies of their rules", sql: """
        ALTER TABLE habits DROP COLUMN goal_thousandths;
        ALTER TABLE habits DROP COLUMN schedule_policy;
        ALTER TABLE habits DROP COLUMN schedule_params;
        ALTER TABLE habits DROP COLUMN progress_policy;
        ALTER TABLE habits DROP COLUMN progress_params;
        ALTER TABLE habits DROP COLUMN streak_policy;
        ALTER TABLE habits DROP COLUMN streak_params;
        ALTER TABLE habits DROP COLUMN evaluation_generation;
        """),
        // What a person writes about a record (`record --note`, Loop's Notes); NULL when nothing.
        Migration(id: 12, name: "notes on records", sql: """
        ALTER TABLE completions ADD COLUMN note TEXT CHECK (note IS NULL OR (length(note) >= 1 AND instr(note, char(0)) = 0));
        """),
        // The change log devices sync by (`SyncTriggers`): empty until an owner first syncs.
        Migration(id: 13, name: "sync change log", sql: SyncTriggers.sql),
        // A habit's fields merge one by one: the stamp of each field's last change (`SyncTriggers`).
        Migration(id: 14, name: "sync stamps per habit field", sql: SyncTriggers.fieldStampsSQL),
        // Hybrid times from the store's clock when it was given one (`SyncTriggers.clock`).
        Migration(id: 15, name: "sync stamps by the store's clock", sql: SyncTriggers.clockSQL),
        // What a server's last sync of an owner decided beyond copying (`SyncDecided`), as JSON.
        Migration(id: 16, name: "what a sync decided", sql: "ALTER TABLE sync_owners ADD COLUMN decided TEXT;"),
        // A server's record of each device's history of pushes (`SyncHistory`), and a device's token
        // for each server: a copy of a store syncing under its original's id is told apart.
        Migration(id: 17, name: "sync device histories", sql: """
        ALTER TABLE sync_peers ADD COLUMN history TEXT;
        CREATE TABLE sync_devices (
            owner TEXT NOT NULL,
            device TEXT NOT NULL,
            history TEXT NOT NULL,
            previous TEXT,
            previous_first TEXT,
            retired INTEGER NOT NULL,
            PRIMARY KEY (owner, device)
        ) STRICT, WITHOUT ROWID;
        """),
        // A user's password, as its Argon2id hash with the salt and parameters in it.
        Migration(id: 18, name: "user passwords", sql: "ALTER TABLE users ADD COLUMN password_hash TEXT CHECK (password_hash IS NULL OR password_hash LIKE '$argon2id$%');"),
        // Devices connected by a one-time code (`ManageDevices`): the codes waiting (their SHA-256),
        // each device's own token (its SHA-256); and on a device, the token it was given per server.
        Migration(id: 19, name: "paired devices", sql: """
        CREATE TABLE pairing_codes (
            code_sha256 TEXT PRIMARY KEY CHECK (length(code_sha256) = 64),
            user_name TEXT NOT NULL,
            expires_at REAL NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE devices (
            id TEXT PRIMARY KEY,
            user_name TEXT NOT NULL,
            name TEXT NOT NULL,
            token_sha256 TEXT NOT NULL UNIQUE CHECK (length(token_sha256) = 64),
            created_at REAL NOT NULL,
            last_seen_at REAL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX devices_by_user ON devices (user_name);
        ALTER TABLE sessions ADD COLUMN device_id TEXT;
        CREATE INDEX sessions_by_device ON sessions (device_id) WHERE device_id IS NOT NULL;
        CREATE TABLE sync_credentials (
            owner TEXT NOT NULL,
            server TEXT NOT NULL,
            token TEXT NOT NULL,
            PRIMARY KEY (owner, server)
        ) STRICT, WITHOUT ROWID;
        """),
        // The token in a user's calendar feed address (`User.feedToken`), found by it.
        Migration(id: 20, name: "calendar feeds", sql: """
        ALTER TABLE users ADD COLUMN feed_token TEXT CHECK (feed_token IS NULL OR length(feed_token) = 67);
        CREATE UNIQUE INDEX users_by_feed_token ON users (feed_token);
        """),
        // Reminder times kept with a habit's rules (`HabitRevision.reminders`): `08:00,21:00`, empty for none.
        Migration(id: 21, name: "reminder times", sql: "ALTER TABLE habit_revisions ADD COLUMN reminders TEXT NOT NULL DEFAULT '' CHECK (length(reminders) <= 64);"),
        // Users' webhooks and the queue of their deliveries (`SQLWebhookRepository`): one row per
        // webhook and event key, so an event found twice is sent once.
        Migration(id: 22, name: "webhooks", sql: """
        CREATE TABLE webhooks (
            id TEXT PRIMARY KEY,
            user_name TEXT NOT NULL,
            url TEXT NOT NULL CHECK (length(url) <= 2000),
            events TEXT NOT NULL CHECK (events <> ''),
            secret TEXT NOT NULL,
            created_at REAL NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX webhooks_by_user ON webhooks (user_name);
        CREATE TABLE webhook_deliveries (
            id TEXT PRIMARY KEY,
            webhook_id TEXT NOT NULL,
            event TEXT NOT NULL,
            event_key TEXT NOT NULL,
            body TEXT NOT NULL,
            created_at REAL NOT NULL,
            attempts INTEGER NOT NULL,
            next_attempt_at REAL NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
            last_status INTEGER,
            last_error TEXT,
            finished_at REAL,
            UNIQUE (webhook_id, event_key)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
        CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, created_at);
        """),
        // A habit's place in its list, colour tag and step (`Habit.position`, `colorTag`, `step`),
        // each merged by sync as a field of its own. Habits already held keep position 0, listed
        // in creation order as before.
        Migration(id: 23, name: "habit positions, colours and steps", sql: """
        ALTER TABLE habits ADD COLUMN position INTEGER NOT NULL DEFAULT 0 CHECK (position BETWEEN 0 AND \(Habit.positionLimit));
        ALTER TABLE habits ADD COLUMN color_tag TEXT CHECK (color_tag IS NULL OR length(color_tag) BETWEEN 1 AND 20);
        ALTER TABLE habits ADD COLUMN step_thousandths INTEGER CHECK (step_thousandths IS NULL OR step_thousandths > 0);
        \(SyncTriggers.displayFieldsSQL)
        """),
        // The day a user's weeks begin on (`User.weekStart`).
        Migration(id: 24, name: "week starts", sql: "ALTER TABLE users ADD COLUMN week_start TEXT NOT NULL DEFAULT 'mon' CHECK (week_start IN ('mon', 'sun'));"),
        // Revisions a rollback wrote say what they take back (`HabitRevision.takesBack`).
        // Scripts the user installed, apart from those a habit stored when it first ran them
        // (`PolicyScript.installed`): installed ones are where a name is found first. A script may
        // become installed (and its time move on); its name, text and hash never change. Scripts
        // held before under a name no built-in has were installed or are a folder's: they count as
        // installed.
        Migration(id: 25, name: "installed scripts and offered scripts", sql: """
        ALTER TABLE policy_scripts ADD COLUMN installed INTEGER NOT NULL DEFAULT 0 CHECK (installed IN (0, 1));
        ALTER TABLE habit_revisions ADD COLUMN takes_back INTEGER CHECK (takes_back IS NULL OR (takes_back >= 1 AND takes_back < number));
        DROP TRIGGER policy_scripts_immutable;
        CREATE TRIGGER policy_scripts_immutable BEFORE UPDATE ON policy_scripts
        WHEN NEW.owner IS NOT OLD.owner OR NEW.sha256 IS NOT OLD.sha256 OR NEW.name IS NOT OLD.name OR NEW.source IS NOT OLD.source
          OR NEW.installed < OLD.installed
        BEGIN SELECT RAISE(ABORT, 'policy scripts are immutable'); END;
        UPDATE policy_scripts SET installed = 1 WHERE name NOT IN (\(MigrationBuiltIns.sqlList));
        \(PolicyOfferSchema.sqlite)
        """),
        // Sync by identities (docs/sync.md): the server's id and epoch, what it took from each
        // device by the number its own writes count to, that count on each device, and the epoch a device
        // last synced under. Habits still at place 0 (from before places) take places after the
        // others in the order they were listed, so that every replica lists them alike.
        Migration(id: 26, name: "sync identities", sql: """
        CREATE TABLE sync_server (id TEXT NOT NULL, epoch TEXT NOT NULL, store TEXT NOT NULL) STRICT;
        CREATE TABLE sync_received (
            owner TEXT NOT NULL,
            device TEXT NOT NULL,
            seq INTEGER NOT NULL,
            fingerprint INTEGER NOT NULL,
            PRIMARY KEY (owner, device, seq)
        ) STRICT, WITHOUT ROWID;
        ALTER TABLE sync_peers ADD COLUMN epoch TEXT;
        UPDATE habits SET position = min(\(Habit.positionLimit), (SELECT max(p.position) FROM habits AS p WHERE p.owner = habits.owner)
            + (SELECT count(*) FROM habits AS h WHERE h.owner = habits.owner AND h.position = 0 AND (h.created_at, h.seq) <= (habits.created_at, habits.seq)))
            WHERE position = 0;
        ALTER TABLE sync_peers ADD COLUMN previous TEXT;
        ALTER TABLE sync_peers ADD COLUMN mark TEXT;
        CREATE TABLE sync_marks (owner TEXT NOT NULL, seq INTEGER NOT NULL, mark TEXT NOT NULL, PRIMARY KEY (owner, seq)) STRICT, WITHOUT ROWID;
        CREATE TABLE sync_retired (owner TEXT NOT NULL, device TEXT NOT NULL, successor TEXT NOT NULL, PRIMARY KEY (owner, device, successor)) STRICT, WITHOUT ROWID;
        \(SyncTriggers.ownSQL)
        """),
        // A user's own limits (`User.limits`, `UserLimits.text`; empty: the server's).
        Migration(id: 27, name: "user limits", sql: "ALTER TABLE users ADD COLUMN limits TEXT NOT NULL DEFAULT '';"),
        // The certificate authorities a device was paired by (`SyncCredential.authorities`).
        Migration(id: 28, name: "paired authorities", sql: "ALTER TABLE sync_credentials ADD COLUMN authorities TEXT;"),
        // What a habit asks and what it is for (`Habit.question`, `Habit.details`), merged by sync
        // as fields of their own.
        Migration(id: 29, name: "habit questions and descriptions", sql: """
        ALTER TABLE habits ADD COLUMN question TEXT CHECK (question IS NULL OR length(question) BETWEEN 1 AND \(Habit.textLimit));
        ALTER TABLE habits ADD COLUMN description TEXT CHECK (description IS NULL OR length(description) BETWEEN 1 AND \(Habit.textLimit));
        \(SyncTriggers.habitTextSQL)
        """),
        // Devices revoked, by their token's hash, so that one coming back is told so (`RevokedDevice`).
        Migration(id: 30, name: "revoked devices", sql: """
        CREATE TABLE revoked_devices (
            token_sha256 TEXT PRIMARY KEY CHECK (length(token_sha256) = 64),
            user_name TEXT NOT NULL,
            name TEXT NOT NULL,
            revoked_at REAL NOT NULL
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX revoked_devices_by_user ON revoked_devices (user_name);
        """),
        // Groups of habits judged by a group rule, versioned as habits are (`HabitGroup`).
        Migration(id: 31, name: "habit groups", sql: GroupSchema.sqlite),
        // Groups and their revisions in the sync log, as entities of their own. Two devices may
        // make groups of one name apart: a store holds both until the server settles the names
        // (as for habits), so the name is looked up by an index, no longer kept unique by one.
        Migration(id: 32, name: "synced groups", sql: """
        CREATE TABLE habit_groups_synced (
            owner TEXT NOT NULL,
            id TEXT NOT NULL,
            name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND \(Habit.nameLimit)),
            name_key TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (owner, id)
        ) STRICT, WITHOUT ROWID;
        INSERT INTO habit_groups_synced (owner, id, name, name_key, created_at) SELECT owner, id, name, name_key, created_at FROM habit_groups;
        DROP TABLE habit_groups;
        ALTER TABLE habit_groups_synced RENAME TO habit_groups;
        CREATE INDEX habit_groups_by_name_key ON habit_groups (owner, name_key);
        \(SyncTriggers.groupsSQL)
        """, rebuildsTables: true),
        // Each group's days and figures, kept as a habit's are (`CachedGroup`).
        Migration(id: 33, name: "group cache", sql: GroupSchema.cacheSQLite),
        // Webhooks written in ntfy's or Gotify's form, browsers' Web Push subscriptions as
        // webhooks of their own format, and the server's VAPID key (`PushServerKey`).
        Migration(id: 34, name: "push", sql: """
        ALTER TABLE webhooks ADD COLUMN format TEXT NOT NULL DEFAULT 'json' CHECK (format IN ('json', 'ntfy', 'gotify', 'webpush'));
        ALTER TABLE webhooks ADD COLUMN push_p256dh TEXT;
        ALTER TABLE webhooks ADD COLUMN push_auth TEXT;
        ALTER TABLE webhooks ADD COLUMN push_name TEXT;
        ALTER TABLE webhooks ADD COLUMN push_holder TEXT;
        CREATE TABLE push_keys (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            private_key BLOB NOT NULL CHECK (length(private_key) = 32),
            public_key BLOB NOT NULL CHECK (length(public_key) = 65),
            created_at REAL NOT NULL
        ) STRICT;
        """),
        // Records and skips a sync inserts by the hundred touch each habit's cache once, after
        // them, instead of once a row (`CacheTriggers.deferrableSQL`).
        Migration(id: 35, name: "cache touched once a batch", sql: CacheTriggers.deferrableSQL),
        // The same for their entries in the change log: logged once after them, in two statements
        // (`SyncTriggers.batchStatements`), instead of by a trigger a row.
        Migration(id: 36, name: "records logged once a batch", sql: SyncTriggers.deferrableSQL),
        // A habit renamed or moved keeps its cached figures; a change to what its policies are
        // given clears them (`CacheTriggers.habitUpdateSQL`).
        Migration(id: 37, name: "figures kept when a habit moves", sql: CacheTriggers.habitUpdateSQL),
    ]
}
