import Foundation
import StackDay
import StackDayExchange

/// One delivery in a webhook's log: `{"id", "event", "state", "attempts", "createdAt",
/// "nextAttemptAt", "lastStatus", "lastError", "finishedAt", "body"}` (`nextAttemptAt` null once
/// it is delivered or failed).
public struct WebhookDeliveryView: JSONView {
    public let delivery: WebhookDelivery

    public init(_ delivery: WebhookDelivery) {
        self.delivery = delivery
    }

    public var json: JSONValue {
        let pending = delivery.state == .pending
        return .object([
            "id": .string(delivery.id.uuidString.lowercased()), "event": .string(delivery.event.rawValue), "state": .string(delivery.state.rawValue),
            "attempts": .number(Double(delivery.attempts)), "createdAt": .string(InstantText.format(delivery.createdAt)),
            "nextAttemptAt": pending ? .string(InstantText.format(delivery.nextAttemptAt)) : .null,
            "lastStatus": delivery.lastStatus.map { .number(Double($0)) } ?? .null, "lastError": delivery.lastError.map(JSONValue.string) ?? .null,
            "finishedAt": delivery.finishedAt.map { .string(InstantText.format($0)) } ?? .null,
            "body": (try? JSONValue(parsing: delivery.body)) ?? .string(delivery.body),
        ])
    }
}
