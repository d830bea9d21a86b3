import StackDay

/// A device's sync with this store as its server.
extension Application {
    /// `POST /v1/sync`: the body's changes taken, and the store's changes since its `since`
    /// answered (`ServeSync`). A body that is not a sync request is a `SyncError`.
    ///
    /// The three steps, one after another; a server runs them apart (`syncRequest`, `sync`,
    /// `prepareFigures`) to give each its own priority.
    public func sync(_ body: [UInt8]) throws -> SyncResponse {
        let request = try syncRequest(body)
        let answer = try sync(request)
        prepareFigures(after: request)
        return answer
    }

    /// A `POST /v1/sync` body read as a request; one that is not is a `SyncError`.
    public func syncRequest(_ body: [UInt8]) throws -> SyncRequest {
        guard let text = String(validating: body, as: UTF8.self) else { throw SyncError.invalidRequest("must be UTF-8 JSON") }
        let json: JSONValue
        do { json = try JSONValue(parsing: text) } catch { throw SyncError.invalidRequest("is not JSON: \(error)") }
        return try SyncRequest(json: json)
    }

    /// The request's changes taken, and the store's changes since its `since` answered: the step
    /// that holds the store's writer.
    public func sync(_ request: SyncRequest) throws -> SyncResponse {
        try ServeSync(context: context)(request)
    }

    /// After a push's last page, the pushed history's figures computed now, once, so the user's
    /// first page after a first sync is a cache read (after every page, a long history's figures
    /// were computed again for each of its pages). Any other request: nothing.
    public func prepareFigures(after request: SyncRequest) {
        if request.endsPush { PrepareFigures(context: context)() }
    }

    /// What the latest sync of this user's devices decided beyond copying; nil when none needed to.
    public func syncDecided() throws -> SyncDecided? {
        try context.store.read { tx in try tx.sync?.lastDecided() }
    }
}
