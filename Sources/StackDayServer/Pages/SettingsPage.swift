import Foundation
import StackDay
import StackDayApplication
import StackDayExchange

/// `/settings`: the user's time zone, day start and language, and what the latest sync of the
/// user's devices decided beyond copying (`SyncDecided`: habits renamed, a device's changes that
/// lost to later ones, records refused), as `stackday sync` says it on the device.
struct SettingsPage {
    let user: User
    let decided: SyncDecided?
    let words: PageWords
    let csrf: String
    /// Whether the page offers the language form (`PageShell.offersLanguage`).
    var offersLanguage = true
    /// The user's paired devices, the latest first.
    var devices: [UserDevice] = []
    /// The calendar feed's address, once the user has asked for one.
    var feedURL: String?
    /// A code just made by "Connect a device": shown once, with its QR code and link.
    var pairing: PairingOffer?
    /// The user's webhooks, each with its latest delivery (nil: the store keeps none).
    var webhooks: [(webhook: Webhook, latest: WebhookDelivery?)]?
    /// A webhook just made: its secret is shown once, on the page answering the post.
    var createdWebhook: Webhook?
    /// The paired device this browser is signed in as (by `/pair`), when it is one: the account's
    /// own settings are then not offered (`DeviceRights`).
    var signedInAs: UserDevice?
    /// The server's push key (base64url) and this browser session's push subscriptions; nil when
    /// the store keeps none or the key cannot be made.
    var push: (key: String, subscriptions: [Webhook])?

    func render() -> String {
        var body: HTML = "<h2>\(words["Settings"])</h2><dl class=\"settings\">"
            + "<dt>\(words["Time zone"])</dt><dd>\(user.timeZone)</dd>"
            + "<dt>\(words["Day starts at"])</dt><dd>\(user.dayStart.description)</dd></dl>"
        if let device = signedInAs {
            body += "<p class=\"hint\" data-signed-in-as=\"device\">\(words["This browser is signed in as the device"]) <strong>\(device.name)</strong>. "
                + "\(words["The account's settings, devices, calendar feed and webhooks need the account's own sign-in."])</p>"
            // It may still revoke itself, which signs this browser out.
            body += "<section aria-labelledby=\"devices-heading\"><h3 id=\"devices-heading\">\(words["Devices"])</h3><ul class=\"devices\" data-devices>"
                + deviceItem(device) + "</ul></section>"
        } else {
            body += weekForm()
            body += devicesSection()
            body += feedSection()
            body += webhooksSection()
        }
        body += pushSection()
        body += "<section aria-labelledby=\"sync-heading\"><h3 id=\"sync-heading\">\(words["Sync"])</h3>"
        guard let decided else {
            body += "<p data-sync-decided=\"none\">\(words["No sync has needed a decision yet."])</p></section>"
            return shell(body)
        }
        body += "<p data-sync-decided=\"\(decided.device)\">\(words["The latest sync that needed a decision"]) "
            + "(\(words["device"]) <code>\(String(decided.device.prefix(8)))</code>, \(time(decided.at))):</p><ul>"
        for renamed in decided.renamed {
            body += "<li data-decided=\"renamed\">\(words["Renamed, two habits had one name:"]) \(renamed.from) → \(renamed.to)</li>"
        }
        for field in decided.overridden {
            body += "<li data-decided=\"overridden\">\(field.habit): \(words["a later change kept"]) \(words[field.field.label]) = "
                + "\(field.kept) (\(words["the device had"]) \(field.mine))</li>"
        }
        for refused in decided.refused {
            body += "<li data-decided=\"refused\">\(words["Not kept, its habit was deleted:"]) \(words[refused.kind == "skip" ? "skip" : "record"])"
                + "\(refused.day.map { " " + $0 } ?? "")</li>"
        }
        return shell(body + "</ul></section>")
    }

    /// The day weeks begin on: a change writes habits that count weeks new rules from the next
    /// such week, which the hint says.
    private func weekForm() -> HTML {
        let options = [(WeekStart.monday, words["Monday"]), (.sunday, words["Sunday"])].map { start, label -> HTML in
            "<option value=\"\(start.rawValue)\"\(start == user.weekStart ? " selected" : "")>\(label)</option>"
        }.joined()
        return "<form method=\"post\" action=\"/settings\" data-form=\"week-start\">\(PageShell.csrf(csrf))<input type=\"hidden\" name=\"back\" value=\"/settings\">"
            + "<label for=\"week-start\">\(words["Weeks start on"])</label><select id=\"week-start\" name=\"\(SettingsRequest.weekStartsOn.key)\">\(options)</select> "
            + "<button type=\"submit\">\(words["Save"])</button>"
            + "<p class=\"hint\">\(words["Habits counted by the week take the new weeks from the next one; weeks already judged keep their figures."])</p></form>"
    }

    /// "Connect a device": the code just made (with its QR code, the page it opens and the
    /// command for a computer), the button that makes one, and each device with its Revoke button.
    private func devicesSection() -> HTML {
        var html: HTML = "<section aria-labelledby=\"devices-heading\"><h3 id=\"devices-heading\">\(words["Devices"])</h3>"
        if let pairing {
            html += "<div class=\"pairing\" data-pairing>"
                + "<p>\(words["Enter this code on the device within 10 minutes, or scan it with the phone's camera:"])</p>"
                + "<p class=\"pairing-code\"><output data-pairing-code>\(pairing.code)</output></p>"
            if let link = pairing.link, let qr = PairingQRPicture(link) {
                // The QR code's SVG is drawn here, its label escaped by `PairingQRPicture.svg`.
                html += "<figure data-pairing-qr>\(trusted: qr.svg(label: words["QR code of the pairing link"] + " " + pairing.code))</figure>"
                    + "<p><a href=\"\(link)\" data-pairing-link>\(link)</a></p>"
            }
            html += "<p>\(words["On a computer:"]) <code data-pairing-command>\(pairing.command)</code></p>"
                + "<p>\(words["It stops working at"]) <time datetime=\"\(InstantText.format(pairing.expiresAt))\">\(time(pairing.expiresAt))</time>.</p></div>"
        }
        html += "<form method=\"post\" action=\"/settings/devices/pair\">\(PageShell.csrf(csrf))"
            + "<button type=\"submit\" data-action=\"pair\">\(words["Connect a device"])</button></form>"
        guard !devices.isEmpty else { return html + "<p data-devices=\"none\">\(words["No device is connected by a code."])</p></section>" }
        html += "<ul class=\"devices\" data-devices>"
        for device in devices { html += deviceItem(device) }
        return html + "</ul></section>"
    }

    /// One device: its name, when it connected and was last seen, and its Revoke button.
    private func deviceItem(_ device: UserDevice) -> HTML {
        let id = device.id.uuidString.lowercased()
        let seen: HTML? = device.lastSeenAt.map { " · \(words["last seen"]) \(time($0))" }
        return "<li data-device=\"\(id)\"><span class=\"device-name\">\(device.name)</span> · \(words["connected"]) \(time(device.createdAt))\(seen)"
            + "<form method=\"post\" action=\"/settings/devices/\(id)/revoke\">\(PageShell.csrf(csrf))"
            + "<button type=\"submit\" data-action=\"revoke\" aria-label=\"\(words["Revoke"]) \(device.name)\">\(words["Revoke"])</button></form></li>"
    }

    /// "Calendar feed": the address a calendar app subscribes to, and the button that makes one
    /// (or a new one, which ends the old).
    private func feedSection() -> HTML {
        var html: HTML = "<section aria-labelledby=\"feed-heading\"><h3 id=\"feed-heading\">\(words["Calendar feed"])</h3>"
            + "<p>\(words["A calendar app subscribed to this address shows each habit on its due days, a year ahead, and checks it every hour."])</p>"
        if let feedURL {
            html += "<p class=\"feed\"><code data-feed-url>\(feedURL)</code></p>"
        }
        return html + "<form method=\"post\" action=\"/settings/feed\">\(PageShell.csrf(csrf))"
            + "<button type=\"submit\" data-action=\"feed\">\(words[feedURL == nil ? "Make a calendar address" : "New address (the old one stops working)"])</button></form></section>"
    }

    /// Reminders on this device: the button that subscribes this browser (the script's; without it
    /// the section says what it needs), this session's subscriptions with their Remove buttons, and
    /// a test message.
    private func pushSection() -> HTML {
        guard let push else { return "" }
        var html: HTML = "<section aria-labelledby=\"push-heading\" data-push-key=\"\(push.key)\"><h3 id=\"push-heading\">\(words["Reminders on this device"])</h3>"
            + "<p>\(words["At each reminder time, a notification for each habit still open, with Done and Later. On an iPhone, add StackDay to the home screen first."])</p>"
            + "<form method=\"post\" action=\"/settings/push\" data-action=\"push-subscribe\">\(PageShell.csrf(csrf))"
            + "<input type=\"hidden\" name=\"endpoint\"><input type=\"hidden\" name=\"p256dh\"><input type=\"hidden\" name=\"auth\">"
            + "<input type=\"hidden\" name=\"name\">"
            + "<button type=\"submit\" data-needs-script>\(words["Remind me on this device"])</button>"
            + "<p class=\"hint\" data-push-state aria-live=\"polite\"><noscript>\(words["Reminders need the page's script and a browser that takes notifications."])</noscript></p></form>"
        if !push.subscriptions.isEmpty {
            html += "<ul class=\"webhooks\" data-push-subscriptions>"
            for subscription in push.subscriptions {
                let id = subscription.id.uuidString.lowercased(), name = HTMLText.escape(subscription.push?.name ?? "")
                html += "<li data-push-subscription=\"\(id)\"><span>\(name) · \(time(subscription.createdAt))</span>"
                    + "<form method=\"post\" action=\"/settings/push/\(id)/delete\">\(PageShell.csrf(csrf))"
                    + "<button type=\"submit\" data-action=\"push-unsubscribe\">\(words["Remove"])<span class=\"sr\"> \(name)</span></button></form></li>"
            }
            html += "</ul><form method=\"post\" action=\"/settings/push/test\" data-action=\"push-test\">\(PageShell.csrf(csrf))"
                + "<button type=\"submit\">\(words["Send a test"])</button></form>"
        }
        return html + "</section>"
    }

    /// Webhooks: each with its events and how its latest delivery went, and its Delete button; the
    /// form that adds one; a new one's secret, shown once.
    private func webhooksSection() -> HTML {
        guard let webhooks else { return "" }
        var html: HTML = "<section aria-labelledby=\"webhooks-heading\"><h3 id=\"webhooks-heading\">\(words["Webhooks"])</h3>"
            + "<p>\(words["Each event is POSTed as signed JSON to the address, and retried for a day until it is taken (docs/server.md, Webhooks)."])</p>"
        if let created = createdWebhook {
            html += "<div class=\"pairing\" data-webhook-created=\"\(created.id.uuidString.lowercased())\"><p>\(words["Its secret, shown only now: check each delivery's X-StackDay-Signature with it."])</p>"
                + "<p><code data-webhook-secret>\(created.secret)</code></p></div>"
        }
        if webhooks.isEmpty {
            html += "<p data-webhooks=\"none\">\(words["No webhooks yet."])</p>"
        } else {
            html += "<ul class=\"webhooks\">"
            for (webhook, latest) in webhooks {
                let id = webhook.id.uuidString.lowercased()
                let events = webhook.events.map(\.rawValue).joined(separator: ", ")
                var last: HTML = ""
                if let latest {
                    let outcome = latest.lastStatus.map { " (\($0))" } ?? latest.lastError.map { " (\($0))" } ?? ""
                    last = " · \(words["latest"]): <span data-webhook-state=\"\(latest.state.rawValue)\">\(words[Self.stateWords[latest.state] ?? ""])\(outcome)</span>"
                }
                html += "<li data-webhook=\"\(id)\"><span><code>\(webhook.url)</code> · \(events)\(last)</span>"
                    + "<form method=\"post\" action=\"/settings/webhooks/\(id)/delete\">\(PageShell.csrf(csrf))"
                    + "<button type=\"submit\" data-action=\"delete-webhook\">\(words["Delete"])<span class=\"sr\"> \(webhook.url)</span></button></form></li>"
            }
            html += "</ul>"
        }
        let boxes = WebhookEvent.allCases.map { event -> HTML in
            let id = "webhook-event-" + event.rawValue.replacingOccurrences(of: ".", with: "-")
            let checked: HTML = [.record, .dayMissed].contains(event) ? " checked" : ""
            return "<label class=\"check\" for=\"\(id)\"><input type=\"checkbox\" id=\"\(id)\" name=\"events\" value=\"\(event.rawValue)\"\(checked)> \(event.rawValue)</label>"
        }.joined()
        return html + "<form method=\"post\" action=\"/settings/webhooks\" data-form=\"add-webhook\">\(PageShell.csrf(csrf))"
            + "<label for=\"webhook-url\">\(words["Address"])</label>"
            + FormField.input(CreateWebhookRequest.url, id: "webhook-url", value: nil, attributes: [("type", "url"), ("placeholder", "https://")])
            + "<fieldset><legend>\(words["Events"])</legend>\(boxes)</fieldset>"
            + "<p><button type=\"submit\">\(words["Add a webhook"])</button></p></form></section>"
    }

    /// A delivery's state in words.
    static let stateWords: [WebhookDelivery.State: String] = [.pending: "waiting to be sent", .delivered: "delivered", .failed: "failed"]

    private func shell(_ body: HTML) -> String {
        PageShell(words: words, user: user.name, csrf: csrf, title: words["Settings"], offersLanguage: offersLanguage).render(body)
    }

    /// `2026-12-03 17:04` in the user's time zone.
    private func time(_ instant: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZoneText.parse(user.timeZone) ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        return String(format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0)
    }
}
