/// The request of an operation that takes no fields: any field is refused.
public struct EmptyRequest: RequestType {
    public static let fields: [FieldDeclaration] = []

    public init() {}

    public init(_ fields: RequestFields) throws {}
}
