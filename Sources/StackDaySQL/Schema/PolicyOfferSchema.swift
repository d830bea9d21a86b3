/// The table of offered scripts (`PolicyOffer`), the same in both stores: one row per recipient
/// (`*` for every user), name and offerer (empty when the server published it), the recipient
/// leading the key as a user leads every other.
public enum PolicyOfferSchema {
    /// The recipient that stands for every user.
    public static let everyone = "*"

    public static let sqlite = """
        CREATE TABLE policy_offers (
            recipient TEXT NOT NULL,
            name TEXT NOT NULL,
            offered_by TEXT NOT NULL,
            sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
            source TEXT NOT NULL,
            offered_at REAL NOT NULL,
            PRIMARY KEY (recipient, name, offered_by)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX policy_offers_by_offerer ON policy_offers (offered_by, name);
        """

    public static let postgres = ["""
        CREATE TABLE policy_offers (
            recipient text NOT NULL,
            name text NOT NULL,
            offered_by text NOT NULL,
            sha256 text NOT NULL CHECK (length(sha256) = 64),
            source text NOT NULL,
            offered_at double precision NOT NULL,
            PRIMARY KEY (recipient, name, offered_by)
        )
        """, "CREATE INDEX policy_offers_by_offerer ON policy_offers (offered_by, name)"]
}
