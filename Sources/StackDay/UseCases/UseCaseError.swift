import Foundation

/// Why a use case refused a request; each message says what to change.
public enum UseCaseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// With the name of the habit closest to it, when one is close (`DidYouMean`).
    case habitNotFound(name: String, suggestion: String? = nil)
    case habitIDNotFound(id: UUID)
    case dayOutOfRange(day: LocalDay)
    case dayTotalTooLarge(habit: String, day: LocalDay, limit: Double)
    case duplicateName(name: String)
    case futureDay(day: LocalDay, today: LocalDay)
    case futureInstant(instant: String)
    case beforeStart(day: LocalDay, habit: String, startedOn: LocalDay)
    case afterArchive(day: LocalDay, habit: String, archivedOn: LocalDay)
    case alreadyCompleted(habit: String, day: LocalDay)
    case nothingToUndo(habit: String, day: LocalDay)
    case nothingToUnskip(habit: String, days: LocalDayRange)
    case completionNotFound(id: String)
    case alreadyArchived(habit: String, archivedOn: LocalDay)
    case notArchived(habit: String)
    case invalidRange(from: LocalDay, to: LocalDay)
    case rangeTooLong(days: Int, limit: Int)
    case dayTooFarAhead(day: LocalDay, limit: LocalDay)
    case spanTooLong(days: Int, limit: Int)
    case revisionNotFound(habit: String, number: Int, latest: Int)
    case nothingToRollBack(habit: String)
    case policyNotUsed(policy: String, role: PolicyRole?)
    case userExists(name: String)
    case userNotFound(name: String)
    case invalidUserName(name: String)
    case invalidTimeZone(text: String)
    /// A policy asked for by name (`GET /v1/policies/{name}`) that the user cannot name.
    case policyNotInstalled(name: String)
    /// Nothing a user's policy names are looked up in has the name (`PolicyDirectory`).
    case policyNotFound(name: String, suggestion: String? = nil)
    /// A script holding a NUL byte: scripts are text, stored and compared byte for byte.
    case scriptNotText(name: String, offset: Int)
    /// A script over `PolicyScript.maximumInstalledBytes`, refused on install.
    case scriptTooLarge(name: String, bytes: Int, limit: Int)
    case invalidLanguage(text: String)
    /// A new password `PasswordRules` refuses.
    case invalidPassword(reason: String)
    /// A password change that did not give the current password, or gave another.
    case wrongPassword
    /// A pairing code that is unknown, used or expired (one answer for each).
    case pairingFailed
    /// A paired device's token used after the device was revoked (`RevokedDevice`).
    case deviceRevoked(name: String, at: Date)
    case invalidDeviceName(name: String)
    case deviceNotFound(id: String)
    /// A webhook address or event list `ManageWebhooks` refuses.
    case invalidWebhook(reason: String)
    /// A write that would take the user past one of `UserLimits`.
    case quotaExceeded(limit: String, maximum: Int)
    /// A limit given as text (`--limit`, `user limits`) that is not `NAME=N` with a known name
    /// and a whole number in range.
    case invalidLimit(text: String, reason: String)
    case webhookNotFound(id: String)
    /// A Web Push subscription that cannot be kept (its endpoint, keys or name), and why.
    case invalidPushSubscription(reason: String)
    /// No push subscription with this id that the caller may see.
    case pushSubscriptionNotFound(id: String)
    /// No offer of a script by this name (published by the server, or shared by the user) to take back.
    case offerNotFound(name: String)
    /// A user sharing a script with themselves.
    case shareWithSelf(name: String)
    /// `habit move A --before A`.
    case cannotMoveBeforeItself(habit: String)
    /// A place in the list below 1.
    case invalidPlace(Int)

    /// Where a policy name was looked for (`PolicyDirectory`), as refusals say it.
    public static let notAmong = "not among your installed scripts, the policy folder, the scripts offered to you or the built-ins"

    public var description: String {
        switch self {
        case .habitNotFound(let name, let suggestion):
            return "no habit named '\(name)'" + DidYouMean.hint(suggestion)
        case .habitIDNotFound(let id):
            return "no habit with id \(UUIDText.format(id))"
        case .dayOutOfRange(let day):
            return "day \(day) is outside 0001-01-01 … 9999-12-31"
        case .dayTotalTooLarge(let habit, let day, let limit):
            return "'\(habit)' on \(day) would total more than \(Quantity.describe(limit)), the most one day can hold"
        case .duplicateName(let name):
            return "a habit named '\(name)' already exists"
        case .futureDay(let day, let today):
            return "\(day) is in the future (today is \(today))"
        case .futureInstant(let instant):
            return "\(instant) is in the future"
        case .beforeStart(let day, let habit, let startedOn):
            return "\(day) is before '\(habit)' started (\(startedOn))"
        case .afterArchive(let day, let habit, let archivedOn):
            return "\(day) is after '\(habit)' was archived (\(archivedOn))"
        case .alreadyCompleted(let habit, let day):
            return "'\(habit)' is already recorded on \(day); it is a done/not-done habit, so a second record would count nothing"
        case .nothingToUnskip(let habit, let days):
            return days.count == 1 ? "'\(habit)' has no skip on \(days.first)" : "'\(habit)' has no skipped day from \(days.first) to \(days.last)"
        case .nothingToUndo(let habit, let day):
            return "'\(habit)' has nothing recorded on \(day) to undo"
        case .completionNotFound(let id):
            return "no completion has id \(id)"
        case .alreadyArchived(let habit, let archivedOn):
            return "'\(habit)' is already archived (on \(archivedOn))"
        case .notArchived(let habit):
            return "'\(habit)' is not archived"
        case .invalidRange(let from, let to):
            return "the range \(from) … \(to) ends before it starts"
        case .rangeTooLong(let days, let limit):
            return "the range has \(days) days; at most \(limit) can be skipped at once"
        case .dayTooFarAhead(let day, let limit):
            return "\(day) is too far ahead: a read reaches at most \(limit), a year after today"
        case .spanTooLong(let days, let limit):
            return "the range has \(days) days; one read shows at most \(limit) (ten years): ask for a shorter range"
        case .revisionNotFound(let habit, let number, let latest):
            return "'\(habit)' has no rule revision \(number) (its revisions are 1 … \(latest))"
        case .nothingToRollBack(let habit):
            return "'\(habit)' has a single rule revision; there is nothing to roll back to"
        case .policyNotUsed(let policy, let role):
            return "policy \(policy) cannot serve as a \(role?.rawValue ?? "schedule, progress or streak") policy"
        case .userExists(let name):
            return "a user named '\(name)' already exists"
        case .userNotFound(let name):
            return "no user named '\(name)'"
        case .invalidUserName:
            return "a user name has 1 to 100 printable characters, without leading or trailing spaces"
        case .invalidTimeZone(let text):
            return "unknown time zone '\(text)' (use an IANA name like Asia/Seoul, or ±HH:MM)"
        case .policyNotInstalled(let name):
            return "no policy named \(name) (\(Self.notAmong))"
        case .scriptNotText(let name, let offset):
            return "policy script \(name) holds a NUL byte at byte \(offset): a policy script is text without NUL bytes"
        case .scriptTooLarge(let name, let bytes, let limit):
            return "policy script \(name) is \(bytes) bytes: an installed policy may have at most \(limit) bytes (\(limit / 1024) KiB)"
        case .policyNotFound(let name, let suggestion):
            return "no such policy: \(name)" + DidYouMean.hint(suggestion) + " (\(Self.notAmong))"
        case .invalidLanguage(let text):
            return "unknown language '\(text)' (use en or ko)"
        case .invalidPassword(let reason):
            return reason
        case .wrongPassword:
            return "the current password is wrong (or missing): give it as \"old\" to change it"
        case .pairingFailed:
            return "that pairing code is unknown, used or expired: ask for a new one under Settings › Connect a device"
        case .deviceRevoked(let name, let at):
            return "this device ('\(name)') was disconnected on \(at.formatted(.iso8601)): "
                + "pair it again with a new code (Settings › Connect a device, then stackday sync --pair CODE)"
        case .invalidDeviceName(let name):
            return "invalid device name '\(name)': use 1 to 64 printable characters"
        case .deviceNotFound(let id):
            return "no such device: \(id) (Settings › Devices on the web, or GET /v1/devices, lists them)"
        case .invalidWebhook(let reason):
            return "invalid webhook: \(reason)"
        case .quotaExceeded(let limit, let maximum):
            return "over the limit of \(limit): a user may have at most \(maximum); remove some first"
        case .invalidLimit(let text, let reason):
            return "invalid limit \(text.debugDescription): \(reason)"
        case .offerNotFound(let name):
            return "no published or shared script named \(name) to take back"
        case .shareWithSelf(let name):
            return "policy \(name) is yours already: share it with another user"
        case .webhookNotFound(let id):
            return "no such webhook: \(id) (GET /v1/webhooks lists them)"
        case .invalidPushSubscription(let reason):
            return "invalid push subscription: \(reason)"
        case .pushSubscriptionNotFound(let id):
            return "no such push subscription: \(id) (GET /v1/push/subscriptions lists them)"
        case .cannotMoveBeforeItself(let habit):
            return "cannot move '\(habit)' before itself: name another habit"
        case .invalidPlace(let place):
            return "a place in the list is counted from 1 (got \(place))"
        }
    }
}
