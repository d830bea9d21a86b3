/// A repository that broke the contract, with what was expected.
public struct ContractFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
