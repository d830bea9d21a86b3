import StackDay

/// A device's sync with this store as its server.
extension Application {
    /// `POST /v1/sync`: the body's changes taken, and the store's changes since its `since`
    /// answered (`ServeSync`). A body that is not a sync request is a `SyncError`.
    public func sync(_ body: [UInt8]) throws -> SyncResponse {
        guard let text = String(validating: body, as: UTF8.self) else { throw SyncError.invalidRequest("must be UTF-8 JSON") }
        let json: JSONValue
        do { json = try JSONValue(parsing: text) } catch { throw SyncError.invalidRequest("is not JSON: \(error)") }
        return try ServeSync(context: context)(SyncRequest(json: json))
    }

    /// What the latest sync of this user's devices decided beyond copying; nil when none needed to.
    public func syncDecided() throws -> SyncDecided? {
        try context.store.read { tx in try tx.sync?.lastDecided() }
    }
}
