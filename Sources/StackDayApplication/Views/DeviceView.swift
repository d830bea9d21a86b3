import Foundation
import StackDay
import StackDayExchange

/// A paired device without its token: `{"id", "name", "createdAt", "lastSeenAt"}`.
public struct DeviceView: JSONView {
    public let device: UserDevice

    public init(_ device: UserDevice) {
        self.device = device
    }

    public var json: JSONValue {
        .object([
            "id": .string(device.id.uuidString.lowercased()), "name": .string(device.name), "createdAt": .string(InstantText.format(device.createdAt)),
            "lastSeenAt": device.lastSeenAt.map { .string(InstantText.format($0)) } ?? .null,
        ])
    }
}
