import StackDay
import StackDayApplication
@testable import stackday
import Testing

/// One declaration of a request field is where the command line's option and help, the API
/// document's schema and the allowed-field errors all come from: a fixture request declared two
/// ways shows each surface following the declaration.
@Suite("request declarations")
struct RequestDeclarationTests {
    /// What a fixture request's one field is declared as.
    protocol Declared: Sendable {
        static var due: RequestField<LocalDay> { get }
    }

    enum AsDueBy: Declared {
        static var due: RequestField<LocalDay> { .day("dueBy", help: "The day it is due by.") }
    }

    enum AsDeadline: Declared {
        static var due: RequestField<LocalDay> { .day("deadline", help: "The last day it may be done.") }
    }

    struct Fixture<Declaration: Declared>: RequestType {
        static var fields: [FieldDeclaration] { [Declaration.due.declaration] }
        let due: LocalDay?
        init(_ fields: RequestFields) throws { due = try fields[Declaration.due] }
    }

    /// Help, schema, the decoded value, and the error for a near miss, for one declaration.
    func surfaces<D: Declared>(_: D.Type) throws -> (help: String, schema: JSONValue, decoded: LocalDay?, refused: String) {
        let spec = CommandSpec(name: "fixture", abstract: "A fixture.", run: { _ in }).taking(Fixture<D>.fields)
        let help = HelpFormatter(toolName: "stackday").help(spec, path: ["fixture"])
        let key = D.due.key
        let decoded = try RequestFields(values: [key: .text("2026-12-04")], surface: .http).decode(Fixture<D>.self).due
        var refused = ""
        do {
            _ = try RequestFields(values: [String(key.dropLast()): .text("2026-12-04")], surface: .http).decode(Fixture<D>.self)
        } catch {
            refused = "\(error)"
        }
        return (help, Fixture<D>.schema, decoded, refused)
    }

    @Test("the command line's help, the schema and the unknown-field error follow the declaration")
    func follow() throws {
        let day = try LocalDay(iso: "2026-12-04")
        let before = try surfaces(AsDueBy.self)
        #expect(before.help.contains("--due-by <day>") && before.help.contains("The day it is due by."), "\(before.help)")
        #expect(before.schema.objectValue?["properties"]?.objectValue?.keys.sorted() == ["dueBy"])
        #expect(before.schema.objectValue?["properties"]?.objectValue?["dueBy"]?.objectValue?["format"] == .string("date"))
        #expect(before.decoded == day)
        #expect(before.refused == "unknown field 'dueB' (did you mean 'dueBy'?)", "\(before.refused)")

        let after = try surfaces(AsDeadline.self)
        #expect(after.help.contains("--deadline <day>") && after.help.contains("The last day it may be done."), "\(after.help)")
        #expect(!after.help.contains("--due-by"))
        #expect(after.schema.objectValue?["properties"]?.objectValue?.keys.sorted() == ["deadline"])
        #expect(after.decoded == day)
        #expect(after.refused == "unknown field 'deadlin' (did you mean 'deadline'?)", "\(after.refused)")
        // The old name is now an unknown field.
        #expect(throws: RequestError.self) { try RequestFields(values: ["dueBy": .text("2026-12-04")], surface: .http).decode(Fixture<AsDeadline>.self) }
    }

    @Test("each command the tree names is the command built under that name, at every level")
    func deferredNames() {
        func walk(_ spec: CommandSpec, _ path: [String]) {
            for (name, built) in zip(spec.subcommandNames, spec.subcommands) {
                #expect(built.name == name, "\(path + [name]) builds '\(built.name)'")
                #expect(spec.subcommand(named: name)?.name == name)
                walk(built, path + [name])
            }
        }
        walk(Stackday.root, [])
        #expect(Stackday.root.subcommandNames.count == 19)
    }

    @Test("every command built from a request offers each of its command-line fields", arguments: [
        (["record"], RecordRequest.fields), (["habit", "add"], CreateHabitRequest.fields), (["habit", "edit"], EditHabitRequest.fields),
        (["skip"], SkipRequest.fields), (["calendar"], CalendarRequest.fields), (["policy", "rollback"], RollbackRequest.fields),
    ])
    func commands(_ path: [String], _ fields: [FieldDeclaration]) throws {
        var spec = Stackday.root
        for name in path { spec = try #require(spec.subcommand(named: name)) }
        for field in fields {
            switch field.commandLine {
            case .option, .repeatable, .flag:
                #expect(spec.options.contains { $0.name == field.optionName && $0.help == field.help }, "\(path) --\(field.optionName)")
            case .argument(let name, let optional, _):
                #expect(spec.arguments.contains { $0.name == name && $0.isOptional == optional }, "\(path) <\(name)>")
            case .none:
                #expect(!spec.options.contains { $0.name == field.optionName }, "\(path) --\(field.optionName) is HTTP only")
            }
        }
    }
}
