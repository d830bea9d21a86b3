/// Why a push message could not be made.
enum PushCryptoError: Error, Equatable, CustomStringConvertible {
    /// libcrypto could not be opened (the message names the Debian package).
    case unavailable(String)
    /// libcrypto refused an input or failed.
    case failed(String)

    var description: String {
        switch self {
        case .unavailable(let why), .failed(let why): why
        }
    }
}
