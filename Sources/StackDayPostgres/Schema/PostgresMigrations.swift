import StackDay
import StackDaySQL
/// The PostgreSQL schema, forward-only. Every table's primary key starts with `user_id`, and
/// completions are hash-partitioned by it: the same key can later spread users across machines.
enum PostgresMigrations {
    /// Applied under this advisory lock, so that processes starting at once migrate once.
    static let lockKey: Int64 = 0x5354_4B44_0001

    static let all: [(id: Int, name: String, sql: [String])] = [
        (1, "habits, revisions, scripts, completions and skips, by user", [
            """
            CREATE TABLE habits (
                user_id text NOT NULL,
                id uuid NOT NULL,
                seq bigint GENERATED ALWAYS AS IDENTITY,
                name text NOT NULL,
                name_key text NOT NULL,
                started_on date NOT NULL,
                archived_on date,
                created_at double precision NOT NULL,
                updated_at double precision NOT NULL,
                unit text NOT NULL,
                PRIMARY KEY (user_id, id)
            )
            """,
            "CREATE INDEX habits_by_name_key ON habits (user_id, name_key)",
            """
            CREATE TABLE policy_scripts (
                user_id text NOT NULL,
                sha256 text NOT NULL CHECK (length(sha256) = 64),
                name text NOT NULL,
                source text NOT NULL,
                installed_at double precision NOT NULL,
                PRIMARY KEY (user_id, sha256)
            )
            """,
            """
            CREATE TABLE habit_revisions (
                user_id text NOT NULL,
                habit_id uuid NOT NULL,
                number integer NOT NULL CHECK (number >= 1),
                effective_from date NOT NULL,
                goal_thousandths bigint NOT NULL CHECK (goal_thousandths > 0),
                schedule_policy text NOT NULL, schedule_params text NOT NULL, schedule_sha256 text,
                progress_policy text NOT NULL, progress_params text NOT NULL, progress_sha256 text,
                streak_policy text NOT NULL, streak_params text NOT NULL, streak_sha256 text,
                created_at double precision NOT NULL,
                PRIMARY KEY (user_id, habit_id, number),
                FOREIGN KEY (user_id, habit_id) REFERENCES habits (user_id, id) ON DELETE CASCADE
            )
            """,
            """
            CREATE TABLE completions (
                user_id text NOT NULL,
                id uuid NOT NULL,
                habit_id uuid NOT NULL,
                completed_on date NOT NULL,
                recorded_at double precision NOT NULL,
                amount_thousandths bigint NOT NULL CHECK (amount_thousandths > 0),
                PRIMARY KEY (user_id, id),
                FOREIGN KEY (user_id, habit_id) REFERENCES habits (user_id, id) ON DELETE CASCADE
            ) PARTITION BY HASH (user_id)
            """,
            "CREATE TABLE completions_0 PARTITION OF completions FOR VALUES WITH (MODULUS 4, REMAINDER 0)",
            "CREATE TABLE completions_1 PARTITION OF completions FOR VALUES WITH (MODULUS 4, REMAINDER 1)",
            "CREATE TABLE completions_2 PARTITION OF completions FOR VALUES WITH (MODULUS 4, REMAINDER 2)",
            "CREATE TABLE completions_3 PARTITION OF completions FOR VALUES WITH (MODULUS 4, REMAINDER 3)",
            "CREATE INDEX completions_by_habit_day ON completions (user_id, habit_id, completed_on, recorded_at) INCLUDE (amount_thousandths)",
            """
            CREATE TABLE skips (
                user_id text NOT NULL,
                id uuid NOT NULL,
                habit_id uuid NOT NULL,
                day date NOT NULL,
                recorded_at double precision NOT NULL,
                PRIMARY KEY (user_id, id),
                FOREIGN KEY (user_id, habit_id) REFERENCES habits (user_id, id) ON DELETE CASCADE
            )
            """,
            "CREATE INDEX skips_by_habit_day ON skips (user_id, habit_id, day)",
        ]),
        // What policies answered, per habit (`CachedEvaluation`, laid out by `CachedEvaluationCoding`),
        // and a per-habit change counter that every write bumps. Deleting any or every cache row is
        // always safe: it is rebuilt on the next read.
        (2, "evaluation cache", [
            "ALTER TABLE habits ADD COLUMN evaluation_generation bigint NOT NULL DEFAULT 0",
            """
            CREATE TABLE evaluation_cache (
                user_id text NOT NULL,
                habit_id uuid NOT NULL,
                format integer NOT NULL,
                evaluator text NOT NULL,
                first_day text NOT NULL,
                valid_through text,
                spans text NOT NULL,
                days bytea NOT NULL,
                checksum bigint NOT NULL,
                summary_as_of text,
                summary text,
                PRIMARY KEY (user_id, habit_id),
                FOREIGN KEY (user_id, habit_id) REFERENCES habits (user_id, id) ON DELETE CASCADE
            )
            """,
        ]),
        // The users a service answers for, as in SQLite's migration 7.
        (3, "users", [
            """
            CREATE TABLE users (
                name text PRIMARY KEY,
                token_sha256 text NOT NULL UNIQUE CHECK (length(token_sha256) = 64),
                time_zone text NOT NULL,
                day_start_minutes integer NOT NULL CHECK (day_start_minutes BETWEEN 0 AND 1439),
                created_at double precision NOT NULL
            )
            """,
        ]),
        // A counter per user that every write transaction of that user bumps, as in SQLite's migration 8.
        (4, "owner change counters", [
            "CREATE TABLE owner_changes (user_id text PRIMARY KEY, generation bigint NOT NULL)",
        ]),
        // Browser sessions and the language of a user's pages, as in SQLite's migration 9.
        (5, "sessions and languages", [
            "ALTER TABLE users ADD COLUMN language text CHECK (language IN ('en', 'ko'))",
            """
            CREATE TABLE sessions (
                id_sha256 text PRIMARY KEY CHECK (length(id_sha256) = 64),
                user_name text NOT NULL REFERENCES users (name) ON DELETE CASCADE,
                csrf_token text NOT NULL,
                created_at double precision NOT NULL,
                expires_at double precision NOT NULL
            )
            """,
            "CREATE INDEX sessions_by_user ON sessions (user_name)",
        ]),
        // The cache kept true by the store itself (`PostgresCacheTriggers`), whoever writes; rows
        // of the earlier format (not bound to their owner and habit) are dropped.
        (6, "cache invalidation by triggers", ["DELETE FROM evaluation_cache"] + PostgresCacheTriggers.statements),
        // What a person writes about a record, as in SQLite's migration 12.
        (7, "notes on records", ["ALTER TABLE completions ADD COLUMN note text CHECK (note IS NULL OR note <> '')"]),
        // The change log devices sync by (`PostgresSyncTriggers`): empty until a user first syncs.
        (8, "sync change log", PostgresSyncTriggers.statements),
        // A habit's fields merge one by one, as in SQLite's migration 14.
        (9, "sync stamps per habit field", PostgresSyncTriggers.fieldStamps),
        // Hybrid times from the store's clock when it was given one, as in SQLite's migration 15.
        (10, "sync stamps by the store's clock", PostgresSyncTriggers.clockStatements),
        // What a server's last sync of a user decided beyond copying, as in SQLite's migration 16.
        (11, "what a sync decided", ["ALTER TABLE sync_owners ADD COLUMN decided text"]),
        // Each device's history of pushes, as in SQLite's migration 17.
        (12, "sync device histories", [
            "ALTER TABLE sync_peers ADD COLUMN history text",
            """
            CREATE TABLE sync_devices (user_id text NOT NULL, device text NOT NULL, history text NOT NULL, previous text,
                previous_first text, retired integer NOT NULL, PRIMARY KEY (user_id, device))
            """,
        ]),
        // A user's password, as in SQLite's migration 18.
        (13, "user passwords", ["ALTER TABLE users ADD COLUMN password_hash text CHECK (password_hash IS NULL OR password_hash LIKE '$argon2id$%')"]),
        // Devices connected by a one-time code, as in SQLite's migration 19.
        (14, "paired devices", [
            """
            CREATE TABLE pairing_codes (
                code_sha256 text PRIMARY KEY CHECK (length(code_sha256) = 64),
                user_name text NOT NULL REFERENCES users (name) ON DELETE CASCADE,
                expires_at double precision NOT NULL
            )
            """,
            """
            CREATE TABLE devices (
                id text PRIMARY KEY,
                user_name text NOT NULL REFERENCES users (name) ON DELETE CASCADE,
                name text NOT NULL,
                token_sha256 text NOT NULL UNIQUE CHECK (length(token_sha256) = 64),
                created_at double precision NOT NULL,
                last_seen_at double precision
            )
            """,
            "CREATE INDEX devices_by_user ON devices (user_name)",
            "ALTER TABLE sessions ADD COLUMN device_id text",
            "CREATE INDEX sessions_by_device ON sessions (device_id) WHERE device_id IS NOT NULL",
            "CREATE TABLE sync_credentials (user_id text NOT NULL, server text NOT NULL, token text NOT NULL, PRIMARY KEY (user_id, server))",
        ]),
        // The token in a user's calendar feed address, as in SQLite's migration 20.
        (15, "calendar feeds", [
            "ALTER TABLE users ADD COLUMN feed_token text CHECK (feed_token IS NULL OR length(feed_token) = 67)",
            "CREATE UNIQUE INDEX users_by_feed_token ON users (feed_token)",
        ]),
        // Reminder times kept with a habit's rules, as in SQLite's migration 21.
        (16, "reminder times", ["ALTER TABLE habit_revisions ADD COLUMN reminders text NOT NULL DEFAULT '' CHECK (length(reminders) <= 64)"]),
        // Users' webhooks and their delivery queue, as in SQLite's migration 22.
        (17, "webhooks", [
            """
            CREATE TABLE webhooks (
                id text PRIMARY KEY,
                user_name text NOT NULL REFERENCES users (name) ON DELETE CASCADE,
                url text NOT NULL CHECK (length(url) <= 2000),
                events text NOT NULL CHECK (events <> ''),
                secret text NOT NULL,
                created_at double precision NOT NULL
            )
            """,
            "CREATE INDEX webhooks_by_user ON webhooks (user_name)",
            """
            CREATE TABLE webhook_deliveries (
                id text PRIMARY KEY,
                webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
                event text NOT NULL,
                event_key text NOT NULL,
                body text NOT NULL,
                created_at double precision NOT NULL,
                attempts integer NOT NULL,
                next_attempt_at double precision NOT NULL,
                state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
                last_status integer,
                last_error text,
                finished_at double precision,
                UNIQUE (webhook_id, event_key)
            )
            """,
            "CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending'",
            "CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, created_at)",
        ]),
        // A habit's place in its list, colour tag and step, as in SQLite's migration 23.
        (18, "habit positions, colours and steps", [
            "ALTER TABLE habits ADD COLUMN position integer NOT NULL DEFAULT 0 CHECK (position BETWEEN 0 AND \(Habit.positionLimit))",
            "ALTER TABLE habits ADD COLUMN color_tag text CHECK (color_tag IS NULL OR length(color_tag) BETWEEN 1 AND 20)",
            "ALTER TABLE habits ADD COLUMN step_thousandths bigint CHECK (step_thousandths IS NULL OR step_thousandths > 0)",
            PostgresSyncTriggers.habitsChanged(fields: SQLSyncStampedColumns.display),
        ]),
        // The day a user's weeks begin on, as in SQLite's migration 24.
        (19, "week starts", ["ALTER TABLE users ADD COLUMN week_start text NOT NULL DEFAULT 'mon' CHECK (week_start IN ('mon', 'sun'))"]),
        // Installed scripts and offered ones, as in SQLite's migration 25.
        (20, "installed scripts and offered scripts", [
            "ALTER TABLE policy_scripts ADD COLUMN installed integer NOT NULL DEFAULT 0 CHECK (installed IN (0, 1))",
            "ALTER TABLE habit_revisions ADD COLUMN takes_back integer CHECK (takes_back IS NULL OR (takes_back >= 1 AND takes_back < number))",
            "UPDATE policy_scripts SET installed = 1 WHERE name NOT IN (\(MigrationBuiltIns.sqlList))",
        ] + PolicyOfferSchema.postgres),
        // Sync by identities, as in SQLite's migration 26.
        (21, "sync identities", [
            "CREATE TABLE sync_server (id text NOT NULL, epoch text NOT NULL, store text NOT NULL)",
            "CREATE TABLE sync_received (user_id text NOT NULL, device text NOT NULL, seq bigint NOT NULL, fingerprint bigint NOT NULL, PRIMARY KEY (user_id, device, seq))",
            "ALTER TABLE sync_peers ADD COLUMN epoch text",
            """
            UPDATE habits SET position = least(\(Habit.positionLimit), (SELECT max(p.position) FROM habits AS p WHERE p.user_id = habits.user_id)
                + (SELECT count(*) FROM habits AS h WHERE h.user_id = habits.user_id AND h.position = 0 AND (h.created_at, h.seq) <= (habits.created_at, habits.seq)))
                WHERE position = 0
            """,
            "ALTER TABLE sync_peers ADD COLUMN previous text",
            "ALTER TABLE sync_peers ADD COLUMN mark text",
            "CREATE TABLE sync_marks (user_id text NOT NULL, seq bigint NOT NULL, mark text NOT NULL, PRIMARY KEY (user_id, seq))",
            "CREATE TABLE sync_retired (user_id text NOT NULL, device text NOT NULL, successor text NOT NULL, PRIMARY KEY (user_id, device, successor))",
        ] + PostgresSyncTriggers.ownStatements),
        // A user's own limits, as in SQLite's migration 27.
        (22, "user limits", ["ALTER TABLE users ADD COLUMN limits text NOT NULL DEFAULT ''"]),
        // The certificate authorities a device was paired by, as in SQLite's migration 28.
        (23, "paired authorities", ["ALTER TABLE sync_credentials ADD COLUMN authorities text"]),
        // What a habit asks and what it is for, as in SQLite's migration 29.
        (24, "habit questions and descriptions", [
            "ALTER TABLE habits ADD COLUMN question text CHECK (question IS NULL OR char_length(question) BETWEEN 1 AND \(Habit.textLimit))",
            "ALTER TABLE habits ADD COLUMN description text CHECK (description IS NULL OR char_length(description) BETWEEN 1 AND \(Habit.textLimit))",
            PostgresSyncTriggers.habitsChanged(fields: SQLSyncStampedColumns.all),
        ]),
        // Devices revoked, as in SQLite's migration 30.
        (25, "revoked devices", [
            "CREATE TABLE revoked_devices (token_sha256 text PRIMARY KEY CHECK (length(token_sha256) = 64), "
                + "user_name text NOT NULL REFERENCES users (name) ON DELETE CASCADE, name text NOT NULL, revoked_at double precision NOT NULL)",
            "CREATE INDEX revoked_devices_by_user ON revoked_devices (user_name)",
        ]),
        // Groups of habits, as in SQLite's migration 31.
        (26, "habit groups", GroupSchema.postgres),
        // Groups in the sync log, as in SQLite's migration 32.
        (27, "synced groups", PostgresSyncTriggers.groupStatements),
        // Each group's days and figures, as in SQLite's migration 33.
        (28, "group cache", GroupSchema.cachePostgres),
        // Webhook formats, Web Push subscriptions and the server's VAPID key, as in SQLite's migration 34.
        (29, "push", [
            "ALTER TABLE webhooks ADD COLUMN format text NOT NULL DEFAULT 'json' CHECK (format IN ('json', 'ntfy', 'gotify', 'webpush'))",
            "ALTER TABLE webhooks ADD COLUMN push_p256dh text",
            "ALTER TABLE webhooks ADD COLUMN push_auth text",
            "ALTER TABLE webhooks ADD COLUMN push_name text",
            "ALTER TABLE webhooks ADD COLUMN push_holder text",
            """
            CREATE TABLE push_keys (
                id integer PRIMARY KEY CHECK (id = 1),
                private_key bytea NOT NULL CHECK (length(private_key) = 32),
                public_key bytea NOT NULL CHECK (length(public_key) = 65),
                created_at double precision NOT NULL
            )
            """,
        ]),
        // A habit renamed or moved keeps its cached figures, as in SQLite's migration 37.
        (30, "figures kept when a habit moves", PostgresCacheTriggers.habitUpdateStatements),
    ]
}
