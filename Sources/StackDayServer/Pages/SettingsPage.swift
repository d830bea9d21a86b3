import Foundation
import StackDay

/// `/settings`: the user's time zone, day start and language, and what the latest sync of the
/// user's devices decided beyond copying (`SyncDecided`: habits renamed, a device's changes that
/// lost to later ones, records refused), as `stackday sync` says it on the device.
struct SettingsPage {
    let user: User
    let decided: SyncDecided?
    let words: PageWords
    let csrf: String

    func render() -> String {
        var body = "<h2>\(words["Settings"])</h2><dl class=\"settings\">"
            + "<dt>\(words["Time zone"])</dt><dd>\(HTMLText.escape(user.timeZone))</dd>"
            + "<dt>\(words["Day starts at"])</dt><dd>\(HTMLText.escape(user.dayStart.description))</dd></dl>"
        body += "<section aria-labelledby=\"sync-heading\"><h3 id=\"sync-heading\">\(words["Sync"])</h3>"
        guard let decided else {
            body += "<p data-sync-decided=\"none\">\(words["No sync has needed a decision yet."])</p></section>"
            return shell(body)
        }
        body += "<p data-sync-decided=\"\(HTMLText.escape(decided.device))\">\(words["The latest sync that needed a decision"]) "
            + "(\(words["device"]) <code>\(HTMLText.escape(String(decided.device.prefix(8))))</code>, \(HTMLText.escape(time(decided.at)))):</p><ul>"
        for renamed in decided.renamed {
            body += "<li data-decided=\"renamed\">\(words["Renamed, two habits had one name:"]) \(HTMLText.escape(renamed.from)) → \(HTMLText.escape(renamed.to))</li>"
        }
        for field in decided.overridden {
            body += "<li data-decided=\"overridden\">\(HTMLText.escape(field.habit)): \(words["a later change kept"]) \(HTMLText.escape(field.field)) = "
                + "\(HTMLText.escape(field.kept)) (\(words["the device had"]) \(HTMLText.escape(field.mine)))</li>"
        }
        for refused in decided.refused {
            body += "<li data-decided=\"refused\">\(words["Not kept, its habit was deleted:"]) \(words[refused.kind == "skip" ? "skip" : "record"])"
                + "\(refused.day.map { " " + HTMLText.escape($0) } ?? "")</li>"
        }
        return shell(body + "</ul></section>")
    }

    private func shell(_ body: String) -> String {
        PageShell(words: words, user: user.name, csrf: csrf, title: words["Settings"]).render(body)
    }

    /// `2026-12-03 17:04` in the user's time zone.
    private func time(_ instant: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZoneText.parse(user.timeZone) ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        return String(format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0)
    }
}
