import Foundation

/// A habit: what to do, from which day, how much a day, and which policies judge it.
///
/// The initializer enforces the habit's own rules (a trimmed, non-empty name of at most
/// 100 characters; a finite goal ≥ 0.001; an archive day not before the start day) and throws
/// `HabitValidationError` otherwise. Rules that need other habits or the clock (unique names,
/// no future days) belong to the use cases.
public struct Habit: Identifiable, Hashable, Sendable {
    public static let nameLimit = 100

    /// Refuses a name being written that holds a control character: NUL would cut it in C, a
    /// newline or an escape would forge lines in logs and terminals. Checked wherever a name is
    /// chosen or arrives (create, rename, edit, import, sync), not when a stored habit is read
    /// back: a store an older build wrote is still read and exported, and shown escaped
    /// (`ControlEscapes`).
    public static func checkNewName(_ name: String) throws(HabitValidationError) {
        if let control = name.unicodeScalars.first(where: ControlEscapes.isControl) {
            throw .controlCharacterInName(code: control.value)
        }
    }

    /// The same for a unit (`cups`), shown beside every amount.
    public static func checkNewUnit(_ unit: String) throws(HabitValidationError) {
        if let control = unit.unicodeScalars.first(where: ControlEscapes.isControl) {
            throw .controlCharacterInUnit(code: control.value)
        }
    }

    /// What names are compared by: trimmed, in Unicode NFC and lowercased, so `Water` and
    /// ` water` are one name, and so are `café` typed precomposed and decomposed.
    public static func nameKey(for name: String) -> String {
        name.trimmedWhitespace.precomposedStringWithCanonicalMapping.lowercased()
    }
    public static let unitLimit = 30
    /// The largest position a habit can stand at.
    public static let positionLimit = 1_000_000
    /// The largest step (`step`), as large as any amount.
    public static let stepLimit = 1_000_000_000.0
    /// The most characters a habit's question or description holds.
    public static let textLimit = 1000

    public let id: UUID
    public let name: String
    /// The first tracked day.
    public let startedOn: LocalDay
    /// The last tracked day, inclusive; nil while the habit is active.
    public let archivedOn: LocalDay?
    public let createdAt: Date
    public let updatedAt: Date
    /// The unit of amounts and the goal (`cups`, `km`); empty for a plain habit.
    public let unit: String
    /// The rule history, numbered 1, 2, 3, … (see `HabitRevision`); never empty.
    public let revisions: [HabitRevision]
    /// Where the habit stands in its owner's list: habits are listed by position, then by
    /// creation. 0 for a habit never placed (stores before positions); a new habit goes last.
    public let position: Int
    /// The habit's colour tag; nil for none.
    public let colorTag: HabitColor?
    /// The amount one tap of `+` records (and the web's `−` takes back); nil for 1.
    public let step: Double?
    /// What the habit asks, as a person would ("Did you read today?", Loop's Question); nil for none.
    public let question: String?
    /// What the habit is for, in the owner's words (Loop's Description; `description` in JSON);
    /// nil for none.
    public let details: String?

    /// What one tap of `+` records.
    public var stepAmount: Double { step ?? 1 }

    /// The latest revision: the rules the next edit starts from.
    public var latest: HabitRevision { revisions[revisions.count - 1] }
    /// The latest revision's goal; 1 for a plain done/not-done habit.
    public var goal: Double { latest.goal }
    public var schedule: PolicyChoice { latest.schedule }
    public var progress: PolicyChoice { latest.progress }
    public var streak: PolicyChoice { latest.streak }

    public init(
        id: UUID? = nil,
        name: String,
        startedOn: LocalDay,
        archivedOn: LocalDay? = nil,
        createdAt: Date,
        updatedAt: Date? = nil,
        goal: Double = 1,
        unit: String = "",
        schedule: PolicyChoice = .daily,
        progress: PolicyChoice = .goal,
        streak: PolicyChoice = .strict,
        reminders: [ReminderTime] = [],
        position: Int = 0,
        colorTag: HabitColor? = nil,
        step: Double? = nil,
        question: String? = nil,
        details: String? = nil
    ) throws(HabitValidationError) {
        let first = try HabitRevision(number: 1, effectiveFrom: startedOn, goal: goal,
                                      schedule: schedule, progress: progress, streak: streak, createdAt: createdAt, reminders: reminders)
        try self.init(id: id, name: name, startedOn: startedOn, archivedOn: archivedOn, createdAt: createdAt,
                      updatedAt: updatedAt, unit: unit, revisions: [first], position: position, colorTag: colorTag, step: step,
                      question: question, details: details)
    }

    /// A habit with its whole rule history; throws unless `revisions` are numbered 1, 2, 3, ….
    public init(
        id: UUID? = nil,
        name: String,
        startedOn: LocalDay,
        archivedOn: LocalDay? = nil,
        createdAt: Date,
        updatedAt: Date? = nil,
        unit: String = "",
        revisions: [HabitRevision],
        position: Int = 0,
        colorTag: HabitColor? = nil,
        step: Double? = nil,
        question: String? = nil,
        details: String? = nil
    ) throws(HabitValidationError) {
        guard !revisions.isEmpty else { throw .revisionsOutOfOrder(expected: 1, found: 0) }
        for (index, revision) in revisions.enumerated() where revision.number != index + 1 {
            throw .revisionsOutOfOrder(expected: index + 1, found: revision.number)
        }
        let trimmed = name.trimmedWhitespace
        guard !trimmed.isEmpty else { throw .emptyName }
        guard trimmed.count <= Habit.nameLimit else { throw .nameTooLong(length: trimmed.count, limit: Habit.nameLimit) }

        let trimmedUnit = unit.trimmedWhitespace
        guard trimmedUnit.count <= Habit.unitLimit else {
            throw .unitTooLong(length: trimmedUnit.count, limit: Habit.unitLimit)
        }
        guard startedOn.isSupported else { throw .dayOutOfRange(startedOn) }
        if let archivedOn, !archivedOn.isSupported { throw .dayOutOfRange(archivedOn) }
        if let archivedOn, archivedOn < startedOn {
            throw .archivedBeforeStart(archivedOn: archivedOn, startedOn: startedOn)
        }
        guard position >= 0 && position <= Self.positionLimit else { throw .invalidPosition(position) }
        if let step, !(step.isFinite && step >= 0.001 && step <= Self.stepLimit && (step * 1000).rounded() == step * 1000) {
            throw .invalidStep(step)
        }
        self.position = position
        self.colorTag = colorTag
        self.step = step
        self.question = try Self.text(question, field: "question")
        self.details = try Self.text(details, field: "description")
        // A habit made now takes a time-ordered id (`TimeOrderedID`), as records do.
        self.id = id ?? TimeOrderedID.make(at: createdAt)
        self.name = trimmed
        self.startedOn = startedOn
        self.archivedOn = archivedOn
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.unit = trimmedUnit
        self.revisions = revisions
    }

    /// A question or description as kept: trimmed, nil when empty; at most `textLimit`
    /// characters and no NUL (line breaks are kept, as a note's are).
    static func text(_ text: String?, field: String) throws(HabitValidationError) -> String? {
        guard let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= textLimit else { throw .textTooLong(field: field, length: trimmed.count, limit: textLimit) }
        guard !trimmed.unicodeScalars.contains("\u{0}") else { throw .nulInText(field: field) }
        return trimmed
    }

    /// A done/not-done habit (goal 1, no unit): one completion a day is all it takes.
    public var isPlain: Bool { goal == 1 && unit.isEmpty }

    /// Whether the habit tracks `day` (between `startedOn` and `archivedOn`, both included).
    public func tracks(_ day: LocalDay) -> Bool {
        day >= startedOn && (archivedOn.map { day <= $0 } ?? true)
    }

    /// A copy with some fields changed, validated like a new habit, stamped `updatedAt`.
    /// Rules change only by `appending(_:at:)`.
    public func with(
        name: String? = nil,
        startedOn: LocalDay? = nil,
        archivedOn: LocalDay?? = .none,
        unit: String? = nil,
        position: Int? = nil,
        colorTag: HabitColor?? = .none,
        step: Double?? = .none,
        question: String?? = .none,
        details: String?? = .none,
        updatedAt: Date
    ) throws(HabitValidationError) -> Habit {
        try Habit(
            id: id,
            name: name ?? self.name,
            startedOn: startedOn ?? self.startedOn,
            archivedOn: archivedOn ?? self.archivedOn,
            createdAt: createdAt,
            updatedAt: updatedAt,
            unit: unit ?? self.unit,
            revisions: revisions,
            position: position ?? self.position,
            colorTag: colorTag ?? self.colorTag,
            step: step ?? self.step,
            question: question ?? self.question,
            details: details ?? self.details
        )
    }

    /// A copy with these revisions in place of its own (pinned, or rewritten before it is stored),
    /// everything else kept. Rules change by `appending(_:from:at:)`.
    public func replacing(revisions: [HabitRevision]) throws(HabitValidationError) -> Habit {
        try Habit(id: id, name: name, startedOn: startedOn, archivedOn: archivedOn, createdAt: createdAt, updatedAt: updatedAt,
                  unit: unit, revisions: revisions, position: position, colorTag: colorTag, step: step, question: question, details: details)
    }

    /// A copy with one more revision: `rules` (goal and policies) effective from `day`.
    public func appending(_ rules: HabitRevision, from day: LocalDay, at now: Date, takesBack: Int? = nil) throws(HabitValidationError) -> Habit {
        let next = try rules.renumbered(revisions.count + 1, effectiveFrom: day, createdAt: now, takesBack: takesBack)
        return try Habit(id: id, name: name, startedOn: startedOn, archivedOn: archivedOn, createdAt: createdAt,
                         updatedAt: now, unit: unit, revisions: revisions + [next], position: position, colorTag: colorTag, step: step,
                         question: question, details: details)
    }

    /// The revision that judges `day`: the highest-numbered one effective on or before it
    /// (revision 1 for days before every other).
    public func revision(on day: LocalDay) -> HabitRevision {
        revisions.last { $0.number == 1 || $0.effectiveFrom <= day } ?? revisions[0]
    }

    /// The days of `range` each revision judges, in day order; revisions judging none are left out.
    ///
    /// Where one span's revision holds the same rules as the one before it (`hasSameRules`: a
    /// rollback bringing back the rules in force), the two are one span under the first: the
    /// rules carry on as if never interrupted, so a streak rule keeps its whole state and a quota
    /// period is not cut there. This is what makes a rollback an undo.
    public func revisionSpans(in range: LocalDayRange) -> [(revision: HabitRevision, days: LocalDayRange)] {
        RevisionSpans.of(revisions, in: range, from: { $0.number == 1 ? nil : $0.effectiveFrom }, sameRules: { $0.hasSameRules(as: $1) })
    }

    /// The numbers of the latest rule change: the latest revision, or every revision one rollback
    /// wrote together (the same `takesBack`, written at the same instant).
    public var latestChange: ClosedRange<Int> {
        let last = revisions[revisions.count - 1]
        guard let takesBack = last.takesBack else { return last.number...last.number }
        var first = last.number
        while first > 1, revisions[first - 2].takesBack == takesBack, revisions[first - 2].createdAt == last.createdAt { first -= 1 }
        return first...last.number
    }

    /// The rollback revision that took revision `number` back (the latest one), or nil when it
    /// stands: a rollback written at revision M with `takesBack` T takes back T … up to the first
    /// revision it wrote.
    public func takenBack(_ number: Int) -> Int? {
        var taker: Int? = nil
        var index = 0
        while index < revisions.count {
            let revision = revisions[index]
            guard let takesBack = revision.takesBack else { index += 1; continue }
            // The rollback's revisions run from here while they share its mark and instant.
            var end = index
            while end + 1 < revisions.count, revisions[end + 1].takesBack == takesBack, revisions[end + 1].createdAt == revision.createdAt { end += 1 }
            if number >= takesBack, number < revision.number { taker = revision.number }
            index = end + 1
        }
        return taker
    }

    /// The rules in force before revision `number` was written, day by day from `day` on: each
    /// revision that judged days from `day` (before `number` and every later one existed) with
    /// the first day it judged. What a rollback of `number` writes again.
    public func rules(before number: Int, from day: LocalDay) -> [(revision: HabitRevision, from: LocalDay)] {
        guard number > 1, number <= revisions.count + 1 else { return [] }
        let earlier = (try? replacing(revisions: Array(revisions.prefix(number - 1)))) ?? self
        return earlier.revisionSpans(in: LocalDayRange(day, .latest)).map { ($0.revision, $0.days.first) }
    }
}
