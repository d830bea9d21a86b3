import Foundation
import StackDay

extension Application {
    /// `POST /v1/webhooks`: a new webhook of the context's owner, with its secret (shown only
    /// now). `checkAddress` is the surface's check of where the URL's host resolves to (the
    /// server refuses private and loopback addresses unless told otherwise); it throws to refuse.
    public func createWebhook(_ request: CreateWebhookRequest, checkAddress: (String) throws -> Void) throws -> WebhookView {
        let webhook = try ManageWebhooks(context: context).create(user: context.store.owner, url: request.url, events: request.events,
                                                                  format: request.format, checkAddress: checkAddress)
        return WebhookView(webhook, showsSecret: true)
    }

    /// `GET /v1/webhooks`: the owner's webhooks, without their secrets.
    public func webhooks() throws -> JSONValue {
        .object(["webhooks": .array(try ManageWebhooks(context: context).webhooks(of: context.store.owner).map { WebhookView($0).json })])
    }

    /// `DELETE /v1/webhooks/{id}`.
    public func deleteWebhook(_ id: String) throws {
        try ManageWebhooks(context: context).delete(try Self.webhookID(id), of: context.store.owner)
    }

    /// `GET /v1/webhooks/{id}/deliveries`: the webhook and its latest 100 deliveries, the newest first.
    public func webhookDeliveries(_ id: String) throws -> JSONValue {
        let (webhook, deliveries) = try ManageWebhooks(context: context).deliveries(of: try Self.webhookID(id), user: context.store.owner)
        return .object(["webhook": WebhookView(webhook).json, "deliveries": .array(deliveries.map { WebhookDeliveryView($0).json })])
    }

    private static func webhookID(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw UseCaseError.webhookNotFound(id: text) }
        return id
    }
}
