import Foundation
import StackDay

/// Groups and their revisions in either store (`GroupSchema`); every statement names the owner.
/// A group is written whole: its row, then its revisions replaced.
public final class SQLGroupRepository: GroupRepository {
    private let executor: any SQLExecutor
    private let owner: SQLValue
    private let statements: Statements
    private static let table = "group_revisions"

    /// The statements, in each dialect, made once.
    private struct Statements: DialectStatements {
        static let sqlite = Statements(.sqlite), postgres = Statements(.postgres)

        let allSQL, byNameKeySQL, upsertSQL, clearRevisionsSQL, trimRevisionsSQL, insertRevisionSQL, deleteSQL: String

        init(_ dialect: SQLDialect) {
            let column = dialect.owner
            func sql(_ text: String) -> String { dialect.statement(text) }
            let revisionColumns = """
                r.number, r.effective_from, r.members, r.group_policy, r.group_params, r.group_sha256,
                r.streak_policy, r.streak_params, r.streak_sha256, r.created_at AS revision_created_at, r.takes_back
                """
            let select = """
                SELECT g.id, g.name, g.created_at, \(revisionColumns) FROM habit_groups AS g
                JOIN group_revisions AS r ON r.\(column) = g.\(column) AND r.group_id = g.id
                """
            allSQL = sql("\(select) WHERE g.\(column) = $1 ORDER BY g.created_at, upper(CAST(g.id AS TEXT)), r.number")
            byNameKeySQL = sql("\(select) WHERE g.\(column) = $1 AND g.name_key = $2 ORDER BY r.number")
            upsertSQL = sql("""
                INSERT INTO habit_groups (\(column), id, name, name_key, created_at) VALUES ($1, $2::uuid, $3, $4, $5)
                ON CONFLICT (\(column), id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key WHERE habit_groups.name <> excluded.name
                """)
            clearRevisionsSQL = sql("DELETE FROM group_revisions WHERE \(column) = $1 AND group_id = $2::uuid")
            trimRevisionsSQL = sql("DELETE FROM group_revisions WHERE \(column) = $1 AND group_id = $2::uuid AND number > $3")
            // A write changes only what differs: a row written again as it was is not written, so the
            // sync log never takes an edit of one field for a write of the others.
            let changing = ["effective_from", "members", "group_policy", "group_params", "group_sha256", "streak_policy", "streak_params", "streak_sha256",
                            "created_at", "takes_back"]
            insertRevisionSQL = sql("""
                INSERT INTO group_revisions (\(column), group_id, number, effective_from, members, group_policy, group_params, group_sha256,
                streak_policy, streak_params, streak_sha256, created_at, takes_back)
                VALUES ($1, $2::uuid, $3, $4::date, $5, $6, $7, $8, $9, $10, $11, $12, $13)
                ON CONFLICT (\(column), group_id, number) DO UPDATE SET \(changing.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
                WHERE \(changing.map { "group_revisions.\($0) IS DISTINCT FROM excluded.\($0)" }.joined(separator: " OR "))
                """)
            deleteSQL = sql("DELETE FROM habit_groups WHERE \(column) = $1 AND id = $2::uuid")
        }
    }

    public init(executor: any SQLExecutor, owner: String) {
        self.executor = executor
        self.owner = .text(owner)
        statements = .of(executor.dialect)
    }

    public func all() throws -> [HabitGroup] {
        try Self.groups(try executor.rows(statements.allSQL, [owner], Self.decode))
    }

    public func group(named name: String) throws -> HabitGroup? {
        try Self.groups(try executor.rows(statements.byNameKeySQL, [owner, .text(Habit.nameKey(for: name))], Self.decode)).first
    }

    public func put(_ group: HabitGroup) throws {
        try executor.run(statements.upsertSQL, [owner, .id(group.id), .text(group.name), .text(Habit.nameKey(for: group.name)), .instant(group.createdAt)])
        try executor.run(statements.trimRevisionsSQL, [owner, .id(group.id), .integer(Int64(group.revisions.count))])
        for revision in group.revisions {
            try executor.run(statements.insertRevisionSQL, [
                owner, .id(group.id), .integer(Int64(revision.number)), .day(revision.effectiveFrom),
                .text(revision.members.map(UUIDText.format).joined(separator: ",")),
                .text(revision.rule.name), .text(revision.rule.parametersJSON), .optional(revision.rule.sha256),
                .text(revision.streak.name), .text(revision.streak.parametersJSON), .optional(revision.streak.sha256),
                .instant(revision.createdAt), revision.takesBack.map { .integer(Int64($0)) } ?? .null,
            ])
        }
    }

    public func delete(id: UUID) throws {
        try executor.run(statements.clearRevisionsSQL, [owner, .id(id)])
        try executor.run(statements.deleteSQL, [owner, .id(id)])
    }

    /// One row: a group's fields beside one of its revisions.
    private struct Row {
        let id: UUID
        let name: String
        let createdAt: Date
        let revision: GroupRevision
    }

    private static func decode(_ row: any SQLRow) throws -> Row {
        let members = try row.text("members").split(separator: ",").map { text in
            guard let id = UUIDText.parse(String(text)) else { throw SQLRowError(table: table, column: "members", value: row.text("members")) }
            return id
        }
        let revision: GroupRevision
        do {
            revision = try GroupRevision(number: Int(row.integer("number")), effectiveFrom: try row.day("effective_from", table: table), members: members,
                                         rule: try row.choice(.group, table: table), streak: try row.choice(.streak, table: table),
                                         createdAt: row.instant("revision_created_at"),
                                         takesBack: row.isNull("takes_back") ? nil : Int(row.integer("takes_back")))
        } catch let error as GroupError {
            throw SQLRowError(table: table, column: "members", value: error.description)
        }
        return Row(id: try row.uuid("id", table: "habit_groups"), name: row.text("name"), createdAt: row.instant("created_at"), revision: revision)
    }

    /// Rows of consecutive revisions of each group, gathered into groups in the rows' order.
    private static func groups(_ rows: [Row]) throws -> [HabitGroup] {
        var groups: [HabitGroup] = []
        var index = 0
        while index < rows.count {
            let first = rows[index]
            var revisions: [GroupRevision] = []
            while index < rows.count, rows[index].id == first.id {
                revisions.append(rows[index].revision)
                index += 1
            }
            do {
                groups.append(try HabitGroup(id: first.id, name: first.name, createdAt: first.createdAt, revisions: revisions))
            } catch {
                throw SQLRowError(table: "habit_groups", column: "name", value: first.name)
            }
        }
        return groups
    }
}
