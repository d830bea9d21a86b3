import StackDay
import StackDayExchange

/// A Web Push subscription as the API shows it: its id, endpoint, name and when it was made
/// (never its keys).
public struct PushSubscriptionView: JSONView {
    public let webhook: Webhook

    public init(_ webhook: Webhook) {
        self.webhook = webhook
    }

    public var json: JSONValue {
        .object([
            "id": .string(webhook.id.uuidString.lowercased()), "endpoint": .string(webhook.url), "name": .string(webhook.push?.name ?? ""),
            "createdAt": .string(InstantText.format(webhook.createdAt)),
        ])
    }
}
