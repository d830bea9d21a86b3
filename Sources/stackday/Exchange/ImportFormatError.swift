/// A malformed import file, named with its file, line and column.
struct ImportFormatError: Error, CustomStringConvertible {
    let file: String
    let line: Int?
    let column: Int?
    let message: String

    var description: String {
        var location = file
        if let line { location += ":\(line)" }
        if let column { location += ":\(column)" }
        return "\(location): \(message)"
    }
}
