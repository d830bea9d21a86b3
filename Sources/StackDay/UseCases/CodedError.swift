/// An error that names its own `ErrorCode`: one a layer above the domain defines (a malformed
/// import file), coded where it is defined rather than guessed as a store failure.
public protocol CodedError: Error {
    var code: ErrorCode { get }
}
