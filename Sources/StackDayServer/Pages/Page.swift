import Foundation
import StackDay
import StackDayApplication

/// One signed-in request's pages: the application for its user, the session (for the CSRF
/// token), and the words of the user's language.
struct Page {
    let app: Application
    let user: User
    let session: UserSession
    let words: PageWords
    let request: HTTPRequest
    /// Whether the browser reached this server over TLS (links the pages make are https://).
    var tls = false

    /// Whether this browser may change the account's settings, the language among them: the
    /// account's own session may, a paired device's may not (`DeviceRights`).
    var offersLanguage: Bool { DeviceRights.allows(.changeSettings, by: session.deviceID) }

    var policies: [PolicyRole: [PolicyListing]] {
        Dictionary(uniqueKeysWithValues: PolicyRole.habitRoles.map { ($0, app.policies(for: $0)) })
    }

    func today() throws -> TodayPage {
        let view = try app.todayView()
        let count = (try? app.context.store.changeCount()).flatMap { $0 } ?? 0
        let etag = "W/\"\(count)-\(view.day.iso)-\(words.language.rawValue)\""
        // Each counted habit's records of today, so each can be taken back by itself.
        var records: [UUID: [Completion]] = [:]
        for case .success(let summary) in view.rows where !TodayPage.isOneTap(summary) && (summary.today?.total ?? 0) > 0 {
            records[summary.habit.id] = try app.records(summary.habit.name, from: view.day, to: view.day).records.sorted { $0.recordedAt < $1.recordedAt }
        }
        let archived = try app.listHabits(ListHabitsRequest(.archived)).habits
        var page = TodayPage(view: view, words: words, csrf: session.csrfToken, policies: policies, etag: etag, records: records,
                             zone: user.boundary.timeZone, archived: archived)
        page.offersLanguage = offersLanguage
        return page
    }

    /// Who a push subscription made in this browser session is held by.
    var pushHolder: String { PushSubscription.holder(session: session.idSHA256) }

    func settings() throws -> SettingsPage {
        var page = SettingsPage(user: user, decided: try app.syncDecided(), words: words, csrf: session.csrfToken)
        page.devices = try ManageDevices(context: app.context).devices(of: user.name)
        page.signedInAs = session.deviceID.flatMap { id in page.devices.first { $0.id == id } }
        page.offersLanguage = offersLanguage
        page.feedURL = user.feedToken.map { (HabitRoutes.baseURL(request, tls: tls) ?? "") + "/v1/feeds/\($0).ics" }
        if try app.context.store.read({ $0.webhooks != nil }) {
            let manage = ManageWebhooks(context: app.context)
            page.webhooks = try manage.webhooks(of: user.name).map { webhook in
                (webhook, try manage.deliveries(of: webhook.id, user: user.name, limit: 1).deliveries.first)
            }
            if let key = try? PushKeyring.key(in: app.context.store, at: app.context.clock.now) {
                page.push = (key.publicKeyText, try ManagePush(context: app.context).subscriptions(holder: pushHolder))
            }
        }
        return page
    }

    func group(_ name: String) throws -> GroupPage {
        let detail = try app.showGroup(name)
        let month = request.argument("month").flatMap { try? LocalDay(iso: $0 + "-01") }.flatMap { $0.isSupported ? $0 : nil } ?? app.today.startOfMonth
        let asked = FormBody(Array((request.query.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }.joined(separator: "&")).utf8))
        let listings = ((try? app.labPolicies()) ?? []).filter { !$0.roles.isDisjoint(with: [.group, .streak]) }
        var simulation: GroupSimulationView? = nil
        var refused: String? = nil
        if asked["lab"] == "1" {
            do {
                var proposal = try labFields(asked, listings: listings).decode(SimulateRequest.self)
                proposal.trace = true
                simulation = try app.simulateGroup(name, proposal)
            } catch {
                refused = words.message(of: error)
            }
        }
        let lab = GroupLabSection(group: detail.group.group, path: "/groups/" + PagePaths.segment(detail.group.group.name), words: words,
                                  csrf: session.csrfToken, listings: listings, asked: asked, simulation: simulation, error: refused)
        var page = GroupPage(detail: detail, month: month, words: words, csrf: session.csrfToken, lab: lab)
        page.offersLanguage = offersLanguage
        page.weekStart = user.weekStart
        page.explanation = try? app.explainGroup(name, ExplainRequest(from: app.today.adding(days: -13)))
        return page
    }

    func habit(_ name: String) throws -> HabitPage {
        let detail = try app.showHabit(name)
        let today = app.today
        let day = request.argument("day").flatMap { try? LocalDay(iso: $0) } ?? today
        // A day asked without its month shows its own month, not the current one.
        let month = request.argument("month").flatMap { try? LocalDay(iso: $0 + "-01") }.flatMap { $0.isSupported ? $0 : nil }
            ?? (request.argument("day") != nil && day.isSupported ? day.startOfMonth : today.startOfMonth)
        let first = month.startOfMonth
        let calendar = try app.calendar([name], CalendarRequest(from: first, to: first.adding(days: first.daysInMonth - 1)))
        let asked = FormBody(Array((request.query.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }.joined(separator: "&")).utf8))
        let listings = (try? app.labPolicies()) ?? []
        var simulation: SimulationView? = nil
        var refused: String? = nil
        if asked["lab"] == "1" {
            do {
                // The lab always shows what the proposed policy traced.
                var proposal = try labFields(asked, listings: listings).decode(SimulateRequest.self)
                proposal.trace = true
                simulation = try app.simulate(name, proposal, days: true)
            } catch {
                refused = words.message(of: error)
            }
        }
        let lab = LabSection(habit: detail.habit, path: "/habits/" + PagePaths.segment(detail.habit.name), words: words, csrf: session.csrfToken,
                             listings: listings, asked: asked, simulation: simulation, error: refused)
        var page = HabitPage(detail: detail, month: first, calendar: calendar, dashboard: try? app.panel(name), day: day,
                             records: (try? app.records(name, from: day, to: day).records) ?? [], today: today, words: words,
                             csrf: session.csrfToken, policies: policies, lab: lab)
        let all = try app.listHabits().habits
        page.place = (all.firstIndex { $0.id == detail.habit.id } ?? 0, all.count)
        page.weekStart = user.weekStart
        page.offersLanguage = offersLanguage
        return page
    }

    static func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: PagePaths.unreserved) ?? "" }

    /// The lab form's fields for `Application.simulate`: the role, the policy and its parameters
    /// (from its generated fields, or a `params` JSON object), and the day to start from.
    func labFields(_ form: FormBody, listings: [PolicyListing]) throws -> RequestFields {
        var fields = RequestFields(surface: .http)
        for key in [SimulateRequest.role.key, SimulateRequest.policy.key, SimulateRequest.from.key] {
            if let value = form[key], !value.isEmpty { fields = fields.with(key, .text(value)) }
        }
        let params = SimulateRequest.params.key
        if let text = form[params], !text.isEmpty {
            fields = fields.with(params, .text(text))
        } else if let chosen = ParameterFields.choice(group: "lab", selectName: SimulateRequest.policy.key, form: form.fields, listings: listings) {
            fields = fields.with(params, .json(.object(chosen.parameters)))
        }
        return fields
    }

    /// The policy editor: `name` and `source` as sent (else the built-in opened with `?open=`,
    /// else a start), and the failures of a refused install.
    func policies(name: String?, source: String?, refusal: PolicyRefusal?) throws -> PoliciesPage {
        let opened = try request.argument("open").flatMap { try app.policySource($0) }
        let start = "-- A streak rule: a met due day adds one, a missed one resets.\nreturn {\n  streak = function(state, day, outcome, params)\n    if outcome.status == \"completed\" then\n      state.current = state.current + 1\n      if state.current > state.longest then state.longest = state.current end\n    elseif outcome.status == \"missed\" then\n      state.current = 0\n    end\n    return state\n  end,\n}\n"
        var page = PoliciesPage(
            list: try app.policyList(), stored: try app.context.store.read { try $0.scripts.all() }, habits: try app.listHabits().habits.map(\.name),
            opened: opened, name: name ?? opened.map { "my-\($0.name)" } ?? "my-streak", source: source ?? opened?.script.source ?? start,
            refusal: refusal, justInstalled: request.argument("installed"), words: words, csrf: session.csrfToken
        )
        page.justShared = request.argument("shared")
        page.offersLanguage = offersLanguage
        return page
    }

    /// The add-habit form as a request: `base` (the form's plain fields) and the chosen policies
    /// with their parameters.
    func createRequest(_ form: FormBody, base: RequestFields) throws -> CreateHabitRequest {
        var fields = base.removing(ParameterFields.scheduleTextKey)
        for (key, value) in try policyFields(form, changedFrom: nil) { fields = fields.with(key, value, label: Self.label(key, form)) }
        return try fields.decode()
    }

    /// The chosen policies' fields of a form (the schedule said in words first), each only when it
    /// differs from `latest`'s.
    private func policyFields(_ form: FormBody, changedFrom latest: HabitRevision?) throws -> [(String, RequestFields.Value)] {
        var fields: [(String, RequestFields.Value)] = []
        if let said = ParameterFields.scheduleText(in: form.fields) { fields.append((HabitRules.schedule.key, .text(said))) }
        let said = !fields.isEmpty
        for role in PolicyRole.habitRoles where !(role == .schedule && said) {
            guard let (policy, parameters) = ParameterFields.choice(role: role, form: form.fields, listings: app.policies(for: role)) else { continue }
            if let current = latest?.choice(for: role), policy == current.name && parameters == current.parameters { continue }
            let (name, parametersField) = HabitRules.fields(of: role)
            fields += [(name.key, .text(policy)), (parametersField.key, .json(.object(parameters)))]
        }
        return fields
    }

    /// How a message names a policy field: the schedule said in words is the form's
    /// `scheduleText`.
    private static func label(_ key: String, _ form: FormBody) -> String {
        key == HabitRules.schedule.key && ParameterFields.scheduleText(in: form.fields) != nil ? "field '\(ParameterFields.scheduleTextKey)'" : "field '\(key)'"
    }

    /// The edit form as a request: only what differs from the habit as it is, so an unchanged
    /// form writes no revision.
    func editRequest(_ name: String, _ form: FormBody) throws -> EditHabitRequest {
        let habit = try FindHabit(context: app.context)(named: name)
        let latest = habit.latest
        var fields = RequestFields(surface: .http)
        let (nameKey, unitKey, goalKey, remindKey) = (EditHabitRequest.name.key, HabitRules.unit.key, HabitRules.goal.key, HabitRules.remind.key)
        if let text = form[nameKey], text != habit.name { fields = fields.with(nameKey, .text(text)) }
        if let text = form[unitKey], text != habit.unit { fields = fields.with(unitKey, .text(text)) }
        if let text = form[goalKey], Double(text) != latest.goal { fields = fields.with(goalKey, .text(text)) }
        let (colorKey, stepKey) = (HabitDisplay.colorTag.key, HabitDisplay.step.key)
        if let text = form[colorKey], text != (habit.colorTag?.rawValue ?? "none") { fields = fields.with(colorKey, .text(text)) }
        if let text = form[stepKey], !text.isEmpty, Double(text) != habit.stepAmount { fields = fields.with(stepKey, .text(text)) }
        var changesRules = fields.has(HabitRules.goal)
        if let text = form[remindKey], (try? ReminderTime.list([text])) != latest.reminders {
            fields = fields.with(remindKey, .text(text))
            changesRules = true
        }
        let policies = try policyFields(form, changedFrom: latest)
        for (key, value) in policies { fields = fields.with(key, value, label: Self.label(key, form)) }
        changesRules = changesRules || !policies.isEmpty
        if changesRules, let from = form[RulesFromRequest.from.key], !from.isEmpty { fields = fields.with(RulesFromRequest.from.key, .text(from)) }
        return try fields.decode()
    }
}
