import Foundation
import StackDay
import StackDayExchange

/// A webhook: `{"id", "url", "events", "createdAt"}`, and its `secret` only when just created.
public struct WebhookView: JSONView {
    public let webhook: Webhook
    public let showsSecret: Bool

    public init(_ webhook: Webhook, showsSecret: Bool = false) {
        self.webhook = webhook
        self.showsSecret = showsSecret
    }

    public var json: JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(webhook.id.uuidString.lowercased()), "url": .string(webhook.url),
            "events": .array(webhook.events.map { .string($0.rawValue) }), "createdAt": .string(InstantText.format(webhook.createdAt)),
            "format": .string(webhook.format.rawValue),
        ]
        if showsSecret { fields["secret"] = .string(webhook.secret) }
        return .object(fields)
    }
}
