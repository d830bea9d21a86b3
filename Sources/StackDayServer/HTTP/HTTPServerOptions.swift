/// Where and how an `HTTPServer` listens.
public struct HTTPServerOptions: Sendable {
    /// An IPv4 address, dotted (`127.0.0.1`, `0.0.0.0`).
    public var host: String
    /// 0 for any free port (`HTTPServer.port` tells which).
    public var port: Int
    /// Worker threads that run handlers, taking complete requests in arrival order (one more
    /// thread polls the connections).
    public var threads: Int
    /// Request bodies over this many bytes are answered 413 without being kept.
    public var maxBody: Int
    /// Seconds an idle or stalled connection is kept open.
    public var idleTimeout: Int
    public var connectionLimit: Int
    /// Bytes per connection for the request line and headers (larger ones are refused).
    public var connectionMemory: Int

    public init(host: String = "127.0.0.1", port: Int = 8080, threads: Int = 4, maxBody: Int = 1 << 20, idleTimeout: Int = 30,
                connectionLimit: Int = 1000, connectionMemory: Int = 64 << 10) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBody = maxBody
        self.idleTimeout = idleTimeout
        self.connectionLimit = connectionLimit
        self.connectionMemory = connectionMemory
    }
}
