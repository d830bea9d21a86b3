import StackDay

/// The JSON Schema of every view (OpenAPI 3.1's dialect), next to the encodings in this module:
/// the API document (`GET /openapi.json`) is made from these, and the API's tests check every
/// answer against them.
public enum ViewSchema {
    static func ref(_ name: String) -> JSONValue { .object(["$ref": .string("#/components/schemas/\(name)")]) }
    static let string: JSONValue = .object(["type": .string("string")])
    static let integer: JSONValue = .object(["type": .string("integer")])
    static let number: JSONValue = .object(["type": .string("number")])
    static let boolean: JSONValue = .object(["type": .string("boolean")])
    static let day: JSONValue = .object(["type": .string("string"), "format": .string("date")])
    static let nullableDay: JSONValue = .object(["type": .array([.string("string"), .string("null")]), "format": .string("date")])
    static let nullableString: JSONValue = .object(["type": .array([.string("string"), .string("null")])])
    static let nullableNumber: JSONValue = .object(["type": .array([.string("number"), .string("null")])])
    static let anyObject: JSONValue = .object(["type": .string("object")])
    static func array(_ items: JSONValue) -> JSONValue { .object(["type": .string("array"), "items": items]) }
    static let reminderTime: JSONValue = .object(["type": .string("string"), "pattern": .string("^([01][0-9]|2[0-3]):[0-5][0-9]$")])
    static func enumeration(_ values: [String]) -> JSONValue { .object(["type": .string("string"), "enum": .array(values.map(JSONValue.string))]) }

    /// An object with these properties, those in `required` required.
    public static func object(_ properties: [String: JSONValue], required: [String], closed: Bool = false) -> JSONValue {
        var object: [String: JSONValue] = ["type": .string("object"), "properties": .object(properties), "required": .array(required.sorted().map(JSONValue.string))]
        if closed { object["additionalProperties"] = .bool(false) }
        return .object(object)
    }

    /// What a sync request or answer in the compact form adds (`SyncWireForm`).
    static let syncForm: [String: JSONValue] = [
        "form": .object(["type": .string("integer"), "enum": .array([.number(1), .number(Double(SyncWireForm.number))])]), "devices": array(string),
        "fields": anyObject,
    ]

    /// A day's state as views show it: an `EntryState`, or `over` for a day past its limit.
    static let states = enumeration(EntryState.allCases.map(\.rawValue) + [ViewJSON.over])

    static let habitFields: [String: JSONValue] = ["id": string, "name": string, "archivedOn": nullableDay, "rules": ref("Rules"),
                                                   "position": integer, "colorTag": .object(["type": .array([.string("string"), .string("null")]),
                                                                          "enum": .array(HabitColor.allCases.map { .string($0.rawValue) } + [.null])]),
                                                   "step": number]
    static let figureFields: [String: JSONValue] = [
        "countsIn": enumeration(CountUnit.allCases.map(\.rawValue)), "current": integer, "longest": integer,
        "completedDays": integer, "eligibleDays": integer, "rate": number, "score": number,
        "period": .object(["oneOf": .array([.object(["type": .string("null")]), ref("Period")])]),
    ]
    static let rowFields = habitFields.merging(figureFields) { $1 }.merging(["error": string]) { $1 }

    /// Every view's schema, by the name `#/components/schemas/…` gives it.
    public static let components: [String: JSONValue] = [
        "Error": object(["error": object(["code": enumeration(ErrorCode.allCases.map(\.rawValue)), "message": string], required: ["code", "message"])],
                        required: ["error"]),
        "SyncChange": object(["kind": enumeration(SyncKind.allCases.map(\.rawValue)), "key": string, "hlc": string, "device": string,
                              "row": anyObject, "deleted": boolean, "stamps": anyObject, "seq": string], required: ["kind", "key", "hlc", "device"], closed: true),
        // A change in the compact form (`SyncWireForm`): `[kind, hlc, device, row, key, stamps, seq]`.
        "SyncCompactChange": .object(["type": .string("array"), "minItems": .number(4), "maxItems": .number(7)]),
        "SyncAnswer": object(syncForm.merging(["changes": array(.object(["oneOf": .array([ref("SyncChange"), ref("SyncCompactChange")])])),
                                               "position": integer, "more": boolean, "accepted": integer, "reset": boolean,
                                               "refused": array(anyObject), "server": object(["id": string, "epoch": string], required: ["id", "epoch"]),
                                               "now": string, "mark": string]) { $1 },
                             required: ["changes", "position", "more", "accepted"]),
        "PolicyChoice": object(["name": string, "params": anyObject, "sha256": nullableString], required: ["name", "params"]),
        "Rules": object([
            "revision": integer, "from": day, "goal": number, "createdAt": string,
            "schedule": ref("PolicyChoice"), "progress": ref("PolicyChoice"), "streak": ref("PolicyChoice"),
            "remind": array(reminderTime), "takesBack": integer, "takenBackBy": integer,
        ], required: ["revision", "from", "goal", "schedule", "progress", "streak"]),
        "Period": object(["per": .object(["type": .array([.string("string"), .string("integer")])]), "first": day, "last": day, "done": integer, "times": integer],
                         required: ["per", "first", "last", "done", "times"]),
        "Habit": object(habitFields.merging(["startedOn": day, "unit": string, "revisions": integer, "question": nullableString,
                                             "description": nullableString]) { $1 },
                        required: ["id", "name", "archivedOn", "rules", "startedOn", "unit", "revisions"]),
        "HabitList": object(["habits": array(ref("Habit")), "next": nullableString], required: ["habits"]),
        "Figures": object(figureFields, required: ["countsIn", "current", "longest", "completedDays", "eligibleDays", "rate", "score", "period"]),
        "HabitDetail": object(habitFields.merging(["startedOn": day, "unit": string, "revisions": integer, "statistics": ref("Figures"), "error": string,
                                                   "question": nullableString, "description": nullableString]) { $1 },
                              required: ["id", "name", "archivedOn", "rules"]),
        "SummaryRow": object(rowFields, required: ["id", "name", "archivedOn", "rules"]),
        "Stats": object(["habits": array(ref("SummaryRow")), "groups": array(ref("GroupDay"))], required: ["habits"]),
        "Today": object(["day": day, "habits": array(object(rowFields.merging([
            "due": boolean, "total": number, "goal": number, "limit": nullableNumber, "unit": string, "progress": number, "state": states,
        ]) { $1 }, required: ["id", "name", "archivedOn", "rules"])), "groups": array(ref("GroupDay"))], required: ["day", "habits"]),
        "GroupDay": object([
            "name": string, "rule": string, "state": states, "progress": number, "done": integer, "current": integer, "longest": integer,
            "rate": number, "score": number, "error": string,
            "members": array(object(["name": string, "state": states, "progress": number], required: ["name", "state", "progress"])),
        ], required: ["name", "rule"]),
        "GroupCalendar": object(["group": string, "error": string,
                                 "days": array(object(["day": day, "state": states, "progress": number], required: ["day", "state", "progress"]))],
                                required: ["group"]),
        "GroupExplanation": object([
            "group": string, "from": day, "to": day, "current": integer, "longest": integer, "trace": array(ref("TraceLine")),
            "steps": array(object([
                "day": day, "revision": integer, "rule": string, "state": states, "progress": number, "why": string,
                "members": array(object(["name": string, "state": states, "progress": number], required: ["name", "state", "progress"])),
            ], required: ["day", "revision", "rule", "state", "progress", "members", "before", "after", "why"])),
        ], required: ["group", "from", "to", "current", "longest", "steps"]),
        "GroupSimulation": object(["group": string, "role": string, "from": day, "current": ref("GroupDay"), "proposed": ref("GroupDay"),
                                   "trace": array(ref("TraceLine"))], required: ["group", "role", "from", "current", "proposed"]),
        "GroupRevision": object(["revision": integer, "from": day, "members": array(string), "rule": ref("PolicyChoice"), "streak": ref("PolicyChoice"),
                                 "createdAt": string, "takesBack": integer], required: ["revision", "from", "members", "rule", "streak"]),
        "Group": object(["id": string, "name": string, "from": day, "members": array(string), "rule": ref("PolicyChoice"), "streak": ref("PolicyChoice"),
                         "revisions": array(ref("GroupRevision"))], required: ["id", "name", "from", "members", "rule", "streak", "revisions"]),
        "GroupList": object(["groups": array(ref("Group"))], required: ["groups"]),
        "GroupDetail": object(["id": string, "name": string, "from": day, "members": array(string), "rule": ref("PolicyChoice"), "streak": ref("PolicyChoice"),
                               "revisions": array(ref("GroupRevision")), "today": ref("GroupDay")],
                              required: ["id", "name", "from", "members", "rule", "streak", "revisions", "today"]),
        "Calendar": object(["habit": string, "error": string, "days": array(object(["day": day, "progress": number, "state": states, "total": number],
                                                                                    required: ["day", "progress", "state", "total"]))], required: ["habit"]),
        "WeekReport": object(["first": day, "last": day, "monday": day, "sunday": day, "mostConsistent": nullableString, "habits": array(object(habitFields.merging([
            "countsIn": string, "unit": string, "marks": array(enumeration(["met", "unmet", "rest"])), "total": number,
            "metDays": integer, "dueDays": integer, "current": integer, "longest": integer, "error": string,
        ]) { $1 }, required: ["id", "name", "rules"]))], required: ["first", "last", "monday", "sunday", "habits", "mostConsistent"]),
        "Completion": object(["id": string, "habit": string, "day": day, "amount": number, "recordedAt": string, "note": nullableString],
                             required: ["id", "habit", "day", "amount", "recordedAt", "note"]),
        "RecordPage": object(["habit": string, "unit": string, "from": string, "to": string, "records": array(ref("Completion")), "next": nullableString],
                             required: ["habit", "unit", "from", "to", "records", "next"]),
        "Skips": object(["habit": string, "skipped": array(day)], required: ["habit", "skipped"]),
        "Unskips": object(["habit": string, "unskipped": array(day)], required: ["habit", "unskipped"]),
        "Revisions": object(["habit": string, "revisions": array(ref("Rules"))], required: ["habit", "revisions"]),
        "RulesAnswer": object(["habit": string, "rules": ref("Rules"), "takesBack": integer, "written": array(ref("Rules"))],
                              required: ["habit", "rules", "takesBack", "written"]),
        "Simulation": object(["habit": string, "role": enumeration(PolicyRole.habitRoles.map(\.rawValue)), "current": ref("SummaryRow"), "proposed": ref("SummaryRow"),
                              "trace": array(ref("TraceLine"))],
                             required: ["habit", "role", "current", "proposed"]),
        "TraceLine": object(["file": string, "line": integer, "day": nullableDay, "text": string], required: ["file", "line", "day", "text"]),
        "Explanation": object([
            "habit": string, "from": day, "to": day, "countsIn": string, "current": integer, "longest": integer, "trace": array(ref("TraceLine")),
            "steps": array(object([
                "day": day, "first": day, "last": day, "revision": integer, "policies": anyObject, "due": boolean, "total": number, "goal": number,
                "limit": nullableNumber,
                "progress": number, "outcome": object(["status": string, "met": boolean], required: ["status", "met"]),
                "before": .object([:]), "after": .object([:]), "why": string,
            ], required: ["day", "revision", "policies", "due", "total", "goal", "progress", "outcome", "before", "after", "why"])),
        ], required: ["habit", "from", "to", "current", "longest", "steps"]),
        "PolicyScript": object(["name": string, "sha256": string, "installedAt": string, "source": string,
                                "origin": enumeration(PolicySource.allCases.map(\.rawValue)), "sharedBy": string], required: ["name", "sha256", "installedAt"]),
        "PolicyEntry": object(["name": string, "source": enumeration(PolicySource.allCases.map(\.rawValue)), "sha256": string, "shortHash": string,
                               "roles": array(enumeration(PolicyRole.allCases.map(\.rawValue))), "description": string, "inUse": boolean,
                               "sharedBy": string, "error": string],
                              required: ["name", "source", "sha256", "shortHash", "roles", "description", "inUse"]),
        "PolicyList": object(["policies": array(ref("PolicyEntry"))], required: ["policies"]),
        "PolicyOffer": object(["name": string, "sha256": string, "shortHash": string, "to": nullableString, "offeredAt": string, "sharedBy": string],
                              required: ["name", "sha256", "shortHash", "to", "offeredAt"]),
        "PolicyOffers": object(["offers": array(ref("PolicyOffer"))], required: ["offers"]),
        "Refusal": object(["policy": string, "failures": array(string), "error": .object([:])], required: ["policy", "failures", "error"]),
        "Device": object(["id": string, "name": string, "createdAt": string, "lastSeenAt": nullableString], required: ["id", "name", "createdAt", "lastSeenAt"]),
        "DeviceList": object(["devices": array(ref("Device"))], required: ["devices"]),
        "Pairing": object(["code": .object(["type": .string("string"), "pattern": .string("^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$")]),
                           "expiresAt": string, "link": nullableString, "command": string],
                          required: ["code", "expiresAt", "link", "command"]),
        "PairedDevice": object(["token": string, "device": ref("Device")], required: ["token", "device"]),
        "Webhook": object(["id": string, "url": string, "events": array(string), "createdAt": string, "secret": string,
                           "format": enumeration(WebhookFormat.hooks.map(\.rawValue))],
                          required: ["id", "url", "events", "createdAt", "format"]),
        "WebhookList": object(["webhooks": array(ref("Webhook"))], required: ["webhooks"]),
        "WebhookDelivery": object(["id": string, "event": string, "state": .object(["enum": .array(["pending", "delivered", "failed"].map(JSONValue.string))]),
                                   "attempts": integer, "createdAt": string, "nextAttemptAt": nullableString,
                                   "lastStatus": .object(["type": .array([.string("integer"), .string("null")])]), "lastError": nullableString,
                                   "finishedAt": nullableString, "body": .object([:])],
                                  required: ["id", "event", "state", "attempts", "createdAt", "nextAttemptAt", "lastStatus", "lastError", "finishedAt", "body"]),
        "PushKey": object(["publicKey": string], required: ["publicKey"]),
        "PushSubscription": object(["id": string, "endpoint": string, "name": string, "createdAt": string], required: ["id", "endpoint", "name", "createdAt"]),
        "PushSubscriptionList": object(["subscriptions": array(ref("PushSubscription"))], required: ["subscriptions"]),
        "Queued": object(["queued": integer], required: ["queued"]),
        "WebhookDeliveryList": object(["webhook": ref("Webhook"), "deliveries": array(ref("WebhookDelivery"))], required: ["webhook", "deliveries"]),
        "User": object(["name": string, "timeZone": string, "dayStartsAt": string, "language": nullableString, "createdAt": string,
                        "hasPassword": boolean, "weekStartsOn": enumeration(WeekStart.allCases.map(\.rawValue))],
                       required: ["name", "timeZone", "dayStartsAt", "createdAt"]),
    ]

    /// The request types whose fields an HTTP body may hold.
    public static let bodyRequests: [any RequestType.Type] = [
        CreateHabitRequest.self, EditHabitRequest.self, RecordRequest.self, SkipRequest.self, ArchiveRequest.self, RollbackRequest.self,
        SimulateRequest.self, SettingsRequest.self, PairRequest.self, PasswordRequest.self, CreateWebhookRequest.self, ShareRequest.self,
        CreateGroupRequest.self, EditGroupRequest.self, RollBackGroupRequest.self, PushSubscriptionRequest.self, PushLaterRequest.self,
    ]

    /// The fields a request body may hold, by operation: its request type's schema (`RequestType.schema`),
    /// and the sync exchange's.
    public static let bodies: [String: JSONValue] = {
        var bodies = Dictionary(uniqueKeysWithValues: bodyRequests.map { ($0.schemaName, $0.schema) })
        bodies["Sync"] = object(syncForm.merging(["device": string, "since": integer, "limit": integer, "previous": string, "history": string,
                                                  "epoch": string, "full": boolean, "written": integer, "mark": string, "more": boolean,
                                                  "changes": .object(["type": .string("array"), "maxItems": .number(Double(SyncRequest.maxChanges)),
                                                                      "items": .object(["oneOf": .array([ref("SyncChange"), ref("SyncCompactChange")])])])]) { $1 },
                                required: ["device"], closed: true)
        return bodies
    }()
}
