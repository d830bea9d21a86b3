/// Why an HTTP exchange failed before an answer was read.
public enum HTTPClientError: Error, Sendable, Equatable {
    /// The host did not resolve, a connection could not be made, or it broke.
    case unreachable(String)
    /// The TLS handshake failed (the certificate, its name or its dates) or the session broke.
    case tlsFailed(String)
    /// What came back is not an HTTP answer this client reads.
    case invalidAnswer(String)
    /// Every address the host resolved to was refused by the caller's check.
    case addressRefused(String)
}
