import StackDay

/// How a `SyncClient` reaches a server: one request, one answer. `HTTPSyncTransport` is the
/// product's; tests put a server in the same process behind one.
public protocol SyncTransport: Sendable {
    /// Sends one request and answers the server's response; throws `SyncError` (or
    /// `CancellationError` when the task is cancelled meanwhile).
    func send(_ request: SyncRequest) async throws -> SyncResponse
}
