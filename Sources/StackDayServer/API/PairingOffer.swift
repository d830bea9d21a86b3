import Foundation
import StackDay
import StackDayExchange

/// A pairing code just made, as the API answers it and the settings page shows it: the code, when
/// it stops working, the page a phone's camera opens (nil when the request named no usable
/// host) and the command a computer runs.
struct PairingOffer {
    let code: String
    let expiresAt: Date
    let link: String?
    let command: String

    /// A new code for `user` (`ManageDevices.startPairing`), its link and command on the server
    /// the request reached.
    init(for user: String, request: HTTPRequest, context: HabitContext, tls: Bool) throws {
        let started = try ManageDevices(context: context).startPairing(user: user)
        let base = HabitRoutes.baseURL(request, tls: tls)
        code = started.code
        expiresAt = started.expiresAt
        link = base.map { $0 + "/pair?code=" + started.code }
        command = "stackday sync --server \(base ?? "URL") --pair \(started.code)"
    }

    var json: JSONValue {
        .object([
            "code": .string(code), "expiresAt": .string(InstantText.format(expiresAt)), "link": link.map(JSONValue.string) ?? .null,
            "command": .string(command),
        ])
    }
}
