import StackDay
import StackDayApplication

/// What a delivery says to a person, for the forms that show text (a notification, ntfy,
/// Gotify): a title, a line of body, and for a reminder the habit, its day and the actions a
/// notification offers, in the user's language.
struct DeliveryMessage {
    let title: String
    let body: String
    /// The reminder's habit and day (nil for other events and a test message).
    let habit: String?
    let day: String?
    let words: Words

    /// The message of `delivery` (its JSON body as `ManageWebhooks.queue` wrote it).
    init(_ delivery: WebhookDelivery) {
        let event = (try? JSONValue(parsing: delivery.body))?.objectValue ?? [:]
        let data = event["data"]?.objectValue ?? [:]
        let words = Words(data["language"]?.stringValue == "ko" ? .korean : .english)
        self.words = words
        habit = data["habit"]?.stringValue
        day = data["day"]?.stringValue
        switch (delivery.event, data["kind"]?.stringValue) {
        case (.reminder, "test"):
            title = "StackDay"
            body = words["Reminders reach this device."]
        case (.reminder, _):
            title = habit ?? "StackDay"
            let total = data["total"]?.numberValue ?? 0, goal = data["goal"]?.numberValue ?? 1
            let unit = data["unit"]?.stringValue ?? ""
            if total > 0 {
                body = words["{total} of {goal} so far today"].replacingOccurrences(of: "{total}", with: Quantity.describe(total))
                    .replacingOccurrences(of: "{goal}", with: Quantity.describe(goal) + (unit.isEmpty ? "" : " " + unit))
            } else {
                body = words["Not done yet today"]
            }
        default:
            title = "StackDay: " + delivery.event.rawValue
            body = data.isEmpty ? delivery.event.rawValue : JSONValue.object(data).jsonText
        }
    }

    /// A push message's payload: `{"title", "body", "habit", "day", "actions"}`; a reminder's
    /// actions are Done and Later, a test's none.
    var pushPayload: JSONValue {
        var actions: [JSONValue] = []
        if habit != nil {
            actions = [.object(["action": .string("done"), "title": .string(words["Done"])]),
                       .object(["action": .string("later"), "title": .string(words["Later"])])]
        }
        return .object(["title": .string(title), "body": .string(body), "habit": habit.map(JSONValue.string) ?? .null,
                        "day": day.map(JSONValue.string) ?? .null, "actions": .array(actions)])
    }
}
