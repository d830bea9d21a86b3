import Foundation
import StackDay

/// The web's remove button: the record `id` of a habit.
public struct RemoveRecordRequest: RequestType {
    public static let id = RequestField<String>.text("id", help: "The record's id.").required.httpOnly.map { text in
        guard let id = UUID(uuidString: text) else { throw RequestError("'\(text)' is not a record id") }
        return id
    }
    public static let fields = [id.declaration]

    public var id: UUID

    public init(id: UUID) {
        self.id = id
    }

    public init(_ fields: RequestFields) throws {
        self.init(id: try fields.required(Self.id))
    }
}
