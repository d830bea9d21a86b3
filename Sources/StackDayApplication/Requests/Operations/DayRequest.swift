import StackDay

/// What one operation that takes a single day means by it.
public protocol DayMeaning: Sendable {
    /// The help of `on`.
    static var help: String { get }
    /// The request's name in the API document.
    static var schemaName: String { get }
}

/// `undo` and `habit archive` and their endpoints: one day, `on` (default today).
public struct DayRequest<Meaning: DayMeaning>: RequestType {
    public static var on: RequestField<LocalDay> { .day("on", help: Meaning.help) }
    public static var fields: [FieldDeclaration] { [on.declaration] }
    public static var schemaName: String { Meaning.schemaName }

    public var on: LocalDay?

    public init(on: LocalDay? = nil) {
        self.on = on
    }

    public init(_ fields: RequestFields) throws {
        self.init(on: try fields[Self.on])
    }
}

/// `undo`, `DELETE /v1/habits/{name}/records/latest`: the day whose latest record goes.
public enum UndoneDay: DayMeaning {
    public static let help = "The day (default: today)."
    public static let schemaName = "Undo"
}

/// `habit archive`, `POST /v1/habits/{name}/archive`: the last tracked day.
public enum ArchivedDay: DayMeaning {
    public static let help = "The last tracked day (default: today)."
    public static let schemaName = "Archive"
}

public typealias UndoRequest = DayRequest<UndoneDay>
public typealias ArchiveRequest = DayRequest<ArchivedDay>
