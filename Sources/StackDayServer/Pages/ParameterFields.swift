import Foundation
import StackDay
import StackDayApplication

/// A policy choice as form fields, generated from the policies' parameter schemas: a select of
/// the policies serving a role, and per policy a fieldset of its parameters (named
/// `ROLEParam.POLICY.NAME`); the script shows only the chosen policy's, and the server reads only
/// the chosen policy's. Read back by `choice(role:form:listings:)`.
struct ParameterFields {
    /// What the fields are named after: a role (`scheduleParam.…`), or the lab (`labParam.…`).
    let group: String
    let listings: [PolicyListing]
    let words: PageWords
    /// The select's name (default: the group).
    var selectName: String? = nil

    init(role: PolicyRole, listings: [PolicyListing], words: PageWords) {
        self.init(group: role.rawValue, listings: listings, words: words)
    }

    init(group: String, listings: [PolicyListing], words: PageWords, selectName: String? = nil) {
        self.group = group
        self.listings = listings
        self.words = words
        self.selectName = selectName
    }

    /// The select and fieldsets, with `current` chosen and its parameters filled in.
    func render(current: PolicyChoice, label: String) -> HTML {
        let id = "\(group)-policy"
        var html: HTML = "<label for=\"\(id)\">\(label)</label><select id=\"\(id)\" name=\"\(selectName ?? group)\" data-policy-role=\"\(group)\">"
        for listing in listings {
            let selected: HTML = listing.name == current.name ? " selected" : ""
            html += "<option value=\"\(listing.name)\"\(selected)>\(words.policy(listing.name))</option>"
        }
        html += "</select>"
        for listing in listings where !listing.schema.parameters.isEmpty {
            let values = listing.name == current.name ? current.parameters : [:]
            html += "<fieldset data-params-for=\"\(group):\(listing.name)\"><legend>\(words.policy(listing.name)): \(words["Parameters"])</legend>"
            if !listing.description.isEmpty { html += "<p class=\"hint\">\(words.prose(listing.description))</p>" }
            for parameter in listing.schema.parameters {
                html += field(parameter, policy: listing.name, value: values[parameter.name], example: parameter.example)
            }
            html += "</fieldset>"
        }
        return html
    }

    func fieldName(_ policy: String, _ parameter: String) -> String { "\(group)Param.\(policy).\(parameter)" }

    /// A schedule said in words or pasted from a calendar (`scheduleText`): when filled, it is the
    /// schedule, read as `--schedule` reads it, and the select above is passed over.
    /// The reminder times field (`remind`): times of day as text, `08:00, 21:00`.
    static func reminders(id: String, current: [ReminderTime], words: PageWords) -> HTML {
        "<label for=\"\(id)\">\(words["Remind at"])</label>"
            + "<p class=\"hint\" id=\"\(id)-hint\">\(words["Times of day, such as 08:00, 21:00: the calendar feed rings at them on due days."])</p>"
            + FormField.input(HabitRules.remind, id: id, value: current.map(\.description).joined(separator: ", "), attributes: [
                ("autocomplete", "off"), ("spellcheck", "false"), ("maxlength", "100"), ("aria-describedby", "\(id)-hint"),
            ])
    }

    static func scheduleText(id: String, words: PageWords) -> HTML {
        "<label for=\"\(id)\">\(words["Or say it in words, or paste a calendar rule"])</label>"
            + "<textarea id=\"\(id)\" name=\"\(scheduleTextKey)\" rows=\"3\" autocomplete=\"off\" data-schedule-text aria-describedby=\"\(id)-hint\""
            + " placeholder=\"\(words["mon wed fri"])\"></textarea>"
            + "<p class=\"hint\" id=\"\(id)-hint\">\(words["For example: 3 times a week, last friday of the month, or RRULE, DTSTART and EXDATE lines copied from a calendar."])</p>"
    }

    /// The name of the field a schedule said in words comes in.
    static let scheduleTextKey = "scheduleText"

    /// The form's `scheduleText`, trimmed, when filled.
    static func scheduleText(in form: [(key: String, value: String)]) -> String? {
        guard let text = form.last(where: { $0.key == scheduleTextKey })?.value.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }

    /// One parameter's field. A choice (a checkbox, a list of boxes, a select) starts at `value`,
    /// else the policy's default, never at an example; a field a person types into is empty unless
    /// the habit has a value, the `example` (the schema's, else the default) shown as a
    /// placeholder, so nothing typed or pasted lands after text already there.
    private func field(_ parameter: PolicyParameterSchema.Parameter, policy: String, value given: JSONValue?, example: JSONValue?) -> HTML {
        let value = given ?? parameter.defaultValue
        func typed(_ text: (JSONValue) -> String) -> HTML {
            let hint: HTML? = given == nil ? example.map { " placeholder=\"\(text($0))\"" } : nil
            return " value=\"\(given.map(text) ?? "")\"\(hint)"
        }
        let name = fieldName(policy, parameter.name)
        let id = "\(group)-\(policy)-\(parameter.name)"
        let hint: HTML = parameter.description.isEmpty ? "" : "<p class=\"hint\" id=\"\(id)-hint\">\(words.prose(parameter.description))</p>"
        let described: HTML = parameter.description.isEmpty ? "" : " aria-describedby=\"\(id)-hint\""
        let label: HTML = "<label for=\"\(id)\">\(parameter.name)</label>"
        switch parameter.kind {
        case .boolean?:
            let checked: HTML = value == .bool(true) ? " checked" : ""
            return "<label class=\"check\"><input type=\"checkbox\" name=\"\(name)\" value=\"true\"\(checked)\(described)> \(parameter.name)</label>\(hint)"
        case .integer?, .number?:
            let step = parameter.kind == .integer ? "1" : "any"
            let minimum: HTML? = parameter.minimum.map { " min=\"\(Quantity.describe($0))\"" }
            let maximum: HTML? = parameter.maximum.map { " max=\"\(Quantity.describe($0))\"" }
            return label + "<input id=\"\(id)\" type=\"number\" inputmode=\"decimal\" step=\"\(step)\"\(minimum)\(maximum) name=\"\(name)\""
                + typed { $0.numberValue.map(Quantity.describe) ?? "" } + "\(described)>" + hint
        case .array? where parameter.itemsAllowed != nil:
            let chosen = Set(value?.arrayValue?.map(\.jsonText) ?? [])
            var boxes: HTML = "<fieldset><legend>\(parameter.name)</legend>"
            for option in parameter.itemsAllowed ?? [] {
                let text = option.stringValue ?? option.jsonText
                let checked: HTML = chosen.contains(option.jsonText) ? " checked" : ""
                boxes += "<label class=\"check\"><input type=\"checkbox\" name=\"\(name)\" value=\"\(text)\"\(checked)> \(text)</label>"
            }
            return boxes + "</fieldset>" + hint
        case .array?:
            return label + "<input id=\"\(id)\" name=\"\(name)\"" + typed { $0.arrayValue?.map { $0.stringValue ?? $0.jsonText }.joined(separator: ", ") ?? "" }
                + "\(described)>" + hint
        case .object?, nil:
            return label + "<input id=\"\(id)\" name=\"\(name)\"" + typed(\.jsonText) + "\(described)>" + hint
        case .string?:
            if let allowed = parameter.allowed {
                var select: HTML = label + "<select id=\"\(id)\" name=\"\(name)\"\(described)>"
                for option in allowed {
                    let text = option.stringValue ?? option.jsonText
                    let selected: HTML = option == value ? " selected" : ""
                    select += "<option\(selected)>\(text)</option>"
                }
                return select + "</select>" + hint
            }
            return label + "<input id=\"\(id)\" name=\"\(name)\"" + typed { $0.stringValue ?? "" } + "\(described)>" + hint
        }
    }

    /// The chosen policy's parameters as JSON, from a form's fields; an empty field leaves its
    /// parameter to the default. Nil when no policy was chosen for the role.
    static func choice(role: PolicyRole, form: [(key: String, value: String)], listings: [PolicyListing]) -> (name: String, parameters: [String: JSONValue])? {
        choice(group: role.rawValue, selectName: role.rawValue, form: form, listings: listings)
    }

    static func choice(group: String, selectName: String, form: [(key: String, value: String)], listings: [PolicyListing]) -> (name: String, parameters: [String: JSONValue])? {
        guard let name = form.last(where: { $0.key == selectName })?.value, !name.isEmpty else { return nil }
        guard let listing = listings.first(where: { $0.name == name }) else { return (name, [:]) }
        let prefix = "\(group)Param.\(name)."
        var parameters: [String: JSONValue] = [:]
        for parameter in listing.schema.parameters {
            let values = form.filter { $0.key == prefix + parameter.name }.map(\.value)
            switch parameter.kind {
            case .boolean?:
                parameters[parameter.name] = .bool(values.contains("true"))
            case .array? where parameter.itemsAllowed != nil:
                let allowed = parameter.itemsAllowed ?? []
                parameters[parameter.name] = .array(allowed.filter { values.contains($0.stringValue ?? $0.jsonText) })
            case .array?:
                guard let text = values.last?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { continue }
                let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                parameters[parameter.name] = .array(items.map { item in
                    if parameter.itemKind == .integer || parameter.itemKind == .number, let number = Double(item) { return .number(number) }
                    return .string(item)
                })
            case .integer?, .number?:
                guard let text = values.last?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { continue }
                parameters[parameter.name] = Double(text).map(JSONValue.number) ?? .string(text)
            case .object?, nil:
                guard let text = values.last?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { continue }
                parameters[parameter.name] = (try? JSONValue(parsing: text)) ?? .string(text)
            case .string?:
                guard let text = values.last, !text.isEmpty else { continue }
                parameters[parameter.name] = .string(text)
            }
        }
        return (name, parameters)
    }
}
