import Foundation
import StackDay

extension Application {
    /// `POST /v1/push/subscriptions`: keeps a browser's subscription, held by `holder` (the
    /// device or browser session that asked; nil for the account's token). `checkAddress` is the
    /// server's check of where the endpoint resolves to.
    public func subscribePush(_ request: PushSubscriptionRequest, holder: String?, checkAddress: (String) throws -> Void) throws -> PushSubscriptionView {
        PushSubscriptionView(try ManagePush(context: context).subscribe(endpoint: request.endpoint, p256dh: request.p256dh, auth: request.auth,
                                                                        name: request.name, holder: holder, checkAddress: checkAddress))
    }

    /// `GET /v1/push/subscriptions`: the subscriptions `holder` sees.
    public func pushSubscriptions(holder: String?) throws -> JSONValue {
        .object(["subscriptions": .array(try ManagePush(context: context).subscriptions(holder: holder).map { PushSubscriptionView($0).json })])
    }

    /// `DELETE /v1/push/subscriptions/{id}`.
    public func unsubscribePush(_ id: String, holder: String?) throws {
        guard let uuid = UUID(uuidString: id) else { throw UseCaseError.pushSubscriptionNotFound(id: id) }
        try ManagePush(context: context).unsubscribe(uuid, holder: holder)
    }

    /// `POST /v1/push/test`: a test message to each subscription `holder` sees; `{"queued": N}`.
    public func pushTest(holder: String?) throws -> JSONValue {
        .object(["queued": .number(Double(try ManagePush(context: context).queueTest(holder: holder)))])
    }

    /// `POST /v1/push/later`: the habit's reminder again in an hour; `{"queued": N}` (0 when the
    /// habit is no longer open today).
    public func pushLater(_ request: PushLaterRequest) throws -> JSONValue {
        .object(["queued": .number(Double(try ManagePush(context: context).queueLater(habit: request.habit)))])
    }
}
