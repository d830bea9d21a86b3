/// What `stackday serve` says when it would serve plain HTTP beyond this machine: tokens, session
/// cookies and everything else cross the network readable by anyone on the path.
public enum PlainHTTPWarning {
    /// The warning for a server listening on `host` (an IPv4 address) without TLS; nil on a
    /// loopback address (`127.0.0.0/8`), or `behindProxy` (a TLS proxy in front is its only client).
    public static func text(host: String, port: Int, behindProxy: Bool) -> String? {
        guard !behindProxy, !host.hasPrefix("127.") else { return nil }
        return "stackday serve: warning: serving plain HTTP on \(host):\(port): tokens and session cookies cross the network unencrypted; "
            + "serve HTTPS with --tls-cert and --tls-key, or listen on 127.0.0.1 behind a TLS proxy (and say so with --behind-proxy)"
    }
}
