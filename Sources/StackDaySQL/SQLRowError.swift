/// A stored row whose column holds what StackDay never writes (a row edited by hand, a file from
/// elsewhere): reading it fails with the table, the column and the start of the value.
public struct SQLRowError: Error, Equatable, Sendable, CustomStringConvertible {
    public let table: String
    public let column: String
    public let value: String

    public init(table: String, column: String, value: String) {
        self.table = table
        self.column = column
        self.value = String(value.prefix(80))
    }

    public var description: String { "a row of \(table) holds an unreadable \(column): '\(value)'" }
}
