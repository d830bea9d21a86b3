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
    /// Connections open at once, all clients together.
    public var connectionLimit: Int
    /// Bytes per connection for the request line and headers (larger ones are refused).
    public var connectionMemory: Int
    /// Connections one client address may hold at once: slow clients from one address are shed
    /// past it while others are served.
    public var perAddressLimit: Int
    /// Seconds of silence a connection is given before its request's headers are complete.
    public var headerTimeout: Int
    /// Requests of one client (one token or session, else one address) answered at once; nil for
    /// half the threads (at least one), so one client never holds every worker.
    public var perClientWorkers: Int?
    /// Requests of one client that may wait for a worker; more are answered 503 at once.
    public var perClientQueue: Int
    /// Seconds a request may hold a worker before it is answered 503 and the worker replaced.
    public var hardDeadline: Int
    /// Who a credential belongs to, for the fair queue: a nonzero key of the user a bearer token
    /// (`Authorization: Bearer TOKEN` written exactly so) or a session cookie's value resolves to,
    /// 0 for none (the request is then one of its address's). Called on the thread that reads the
    /// connections: it must answer from memory. nil: requests are keyed by address.
    public var clientKey: (@Sendable (String) -> UInt64)?
    /// The session cookie whose value `clientKey` is asked about.
    public var sessionCookie: String?
    /// Serve HTTPS with the certificate `HTTPServer.loadCertificate` loaded (TLS 1.2 and 1.3).
    public var tls = false
    /// Bytes a second a request body must average once it has had `headerTimeout` seconds; a
    /// slower one's connection is closed, so that a trickled body cannot hold a connection.
    public var minBodyRate = 1024

    public init(host: String = "127.0.0.1", port: Int = 8080, threads: Int = 4, maxBody: Int = 1 << 20, idleTimeout: Int = 30,
                connectionLimit: Int = 1000, connectionMemory: Int = 64 << 10, perAddressLimit: Int = 64, headerTimeout: Int = 10,
                perClientWorkers: Int? = nil, perClientQueue: Int = 64, hardDeadline: Int = 5) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxBody = maxBody
        self.idleTimeout = idleTimeout
        self.connectionLimit = connectionLimit
        self.connectionMemory = connectionMemory
        self.perAddressLimit = perAddressLimit
        self.headerTimeout = headerTimeout
        self.perClientWorkers = perClientWorkers
        self.perClientQueue = perClientQueue
        self.hardDeadline = hardDeadline
    }

    /// `perClientWorkers` as it applies.
    var workersPerClient: Int { perClientWorkers ?? max(1, threads / 2) }
}
