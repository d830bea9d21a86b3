import StackDay

/// A device's sync with this store as its server.
extension Application {
    /// `POST /v1/sync`: the body's changes taken, and the store's changes since its `since`
    /// answered (`ServeSync`). A body that is not a sync request is a `SyncError`.
    public func sync(_ body: [UInt8]) throws -> SyncResponse {
        guard let text = String(validating: body, as: UTF8.self) else { throw SyncError.invalidRequest("must be UTF-8 JSON") }
        let json: JSONValue
        do { json = try JSONValue(parsing: text) } catch { throw SyncError.invalidRequest("is not JSON: \(error)") }
        let request = try SyncRequest(json: json)
        let answer = try ServeSync(context: context)(request)
        // A push's last page: the pushed history's figures computed now, once, so the user's first
        // page after a first sync is a cache read (after every page, a long history's figures were
        // computed again for each of its pages).
        if request.endsPush { PrepareFigures(context: context)() }
        return answer
    }

    /// What the latest sync of this user's devices decided beyond copying; nil when none needed to.
    public func syncDecided() throws -> SyncDecided? {
        try context.store.read { tx in try tx.sync?.lastDecided() }
    }
}
