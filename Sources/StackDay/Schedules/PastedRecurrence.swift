import Foundation

/// A recurrence as calendars export it, read into the `rrule` policy's parameters.
///
/// Takes a bare rule (`FREQ=…`), an `RRULE:` line, the lines a calendar copies for an event's
/// recurrence (`DTSTART`, `RRULE`, `EXDATE`, `RDATE`), a `BEGIN:VEVENT … END:VEVENT` block, or a
/// whole `.ics` file holding one recurring event (its `VTIMEZONE` part is passed over; its
/// `VALARM`s and its start time become reminder times, `reminders`). Folded lines (RFC 5545 §3.1) are unfolded; CRLF and LF both end a line. An event that
/// moves or cancels one occurrence (a `VEVENT` with `RECURRENCE-ID`) takes that day away and, when
/// moved, adds the day it moved to.
///
/// The engine is day-level, so a date-time stands for a day: a floating one or one with a `TZID`
/// for the date it is written with (the day the event's own calendar shows), a UTC one (`…Z`) for
/// its day in the event's zone (DTSTART's `TZID` when the system knows it, else the habit's zone).
/// `UNTIL` becomes that day (`UNTIL=20270630`), so what is stored is a plain day-level rule.
public struct PastedRecurrence: Sendable, Equatable {
    /// The rule's value (no `RRULE:`), with `UNTIL` as a date.
    public let rule: String
    /// DTSTART's day, when a `DTSTART` line was given.
    public let start: LocalDay?
    /// EXDATE's days, in order, each once.
    public let excluded: [LocalDay]
    /// RDATE's days, in order, each once.
    public let included: [LocalDay]
    /// The event's `SUMMARY`, when a `VEVENT` gave one.
    public let summary: String?
    /// When to remind, as times of day: each `VALARM`'s trigger (RFC 5545 §3.8.6.3: a duration
    /// before or after the start, or an instant), else a timed event's start; none for an
    /// all-day event without alarms. A trigger that falls on the day before (an all-day event's
    /// `-PT15H`) is its time of day.
    public let reminders: [ReminderTime]

    /// Whether `text` is more than a bare rule: several lines, a named line (`RRULE:`, `DTSTART…`,
    /// `BEGIN:…`) or a UTC `UNTIL`, which the `rrule` policy takes only once read by this type.
    public static func needsReading(_ text: String) -> Bool {
        let upper = text.uppercased()
        return text.contains("\n") || text.contains("\r") || upper.hasPrefix("RRULE:") || upper.hasPrefix("DTSTART")
            || upper.hasPrefix("BEGIN:") || hasTimedUntil(upper)
    }

    /// Whether `upper` has `UNTIL=` followed by a date and a time (`20261231T235959`), looked for
    /// byte by byte: a pattern engine would be loaded into every process that reads a schedule.
    static func hasTimedUntil(_ upper: String) -> Bool {
        let bytes = Array(upper.utf8), marker = Array("UNTIL=".utf8)
        func digits(_ range: Range<Int>) -> Bool { range.upperBound <= bytes.count && range.allSatisfy { (0x30...0x39).contains(bytes[$0]) } }
        var start = 0
        while start + marker.count + 15 <= bytes.count {
            if bytes[start..<(start + marker.count)].elementsEqual(marker) {
                let value = start + marker.count
                if digits(value..<(value + 8)), bytes[value + 8] == UInt8(ascii: "T"), digits((value + 9)..<(value + 15)) { return true }
            }
            start += 1
        }
        return false
    }

    /// Reads pasted text; `timeZone` is the habit's, for UTC times when DTSTART names no zone.
    public init(parsing text: String, timeZone: TimeZone) throws(PastedRecurrenceError) {
        var rules: [String] = []
        var startLine: ContentLine?
        var exdates: [ContentLine] = []
        var rdates: [ContentLine] = []
        var moved: [(from: ContentLine, to: ContentLine?)] = []
        var summary: String?
        var triggers: [ContentLine] = []
        var endLine: ContentLine?
        var components: [String] = []
        var recurringEvents = 0
        var eventHasRule = false
        var event = Event()
        var sawEvent = false

        for line in Self.unfolded(text) {
            if Self.isBareRule(line) {
                guard components.isEmpty || components == ["VCALENDAR", "VEVENT"] || components == ["VEVENT"] else { continue }
                event.rules.append(line)
                continue
            }
            let content = try ContentLine(line)
            switch content.name {
            case "BEGIN":
                components.append(content.value.uppercased())
                if components.last == "VEVENT" { event = Event(); sawEvent = true }
                continue
            case "END":
                if components.last == "VEVENT", let original = event.recurrenceID {
                    moved.append((from: original, to: event.cancelled ? nil : event.start))
                } else if components.last == "VEVENT" {
                    if !event.rules.isEmpty {
                        recurringEvents += 1
                        (rules, startLine, exdates, rdates, summary) = (event.rules, event.start, event.exdates, event.rdates, event.summary)
                        (triggers, endLine) = (event.triggers, event.end)
                        eventHasRule = true
                    }
                }
                if !components.isEmpty { components.removeLast() }
                continue
            default:
                break
            }
            // An alarm of the event: when it rings.
            if components.last == "VALARM", components.dropLast().last == "VEVENT", content.name == "TRIGGER" {
                event.triggers.append(content)
                continue
            }
            // Only the event's own lines (or loose lines) count: a VTIMEZONE's RRULE and DTSTART
            // describe daylight saving time, a VALARM's its alarm.
            let inEvent = components.last == "VEVENT"
            guard components.isEmpty || inEvent else { continue }
            switch content.name {
            case "RRULE": event.rules.append(content.value)
            case "DTSTART": event.start = content
            case "DTEND" where inEvent: event.end = content
            case "EXDATE": event.exdates.append(content)
            case "RDATE": event.rdates.append(content)
            case "SUMMARY" where inEvent: event.summary = Self.unescaped(content.value)
            case "RECURRENCE-ID" where inEvent: event.recurrenceID = content
            case "STATUS" where inEvent: event.cancelled = content.value.uppercased() == "CANCELLED"
            case "EXRULE": throw PastedRecurrenceError("EXRULE is not supported (RFC 5545 deprecates it); list the days to leave out with EXDATE")
            default: continue
            }
        }
        if !sawEvent {
            (rules, startLine, exdates, rdates) = (event.rules, event.start, event.exdates, event.rdates)
        } else if recurringEvents > 1 {
            throw PastedRecurrenceError("the calendar holds \(recurringEvents) recurring events; give one event (one BEGIN:VEVENT … END:VEVENT)")
        } else if !eventHasRule {
            throw PastedRecurrenceError("the event does not repeat: it has no RRULE line")
        }
        guard !rules.isEmpty else { throw PastedRecurrenceError("no rule found: give an RRULE line or a rule such as FREQ=WEEKLY;BYDAY=MO,WE") }
        guard rules.count == 1 else { throw PastedRecurrenceError("\(rules.count) RRULE lines: a habit follows one rule") }

        let start = try startLine.map { line throws(PastedRecurrenceError) in try Self.days(of: line, in: timeZone, part: "DTSTART") }
        if let start, start.count != 1 { throw PastedRecurrenceError("DTSTART holds \(start.count) values; it takes one") }
        let zone = startLine?.parameters["TZID"].flatMap(TimeZone.init(identifier:)) ?? timeZone
        var excluded: [LocalDay] = []
        for line in exdates { excluded += try Self.days(of: line, in: zone, part: "EXDATE") }
        var included: [LocalDay] = []
        for line in rdates { included += try Self.days(of: line, in: zone, part: "RDATE") }
        for move in moved {
            let from = try Self.days(of: move.from, in: zone, part: "RECURRENCE-ID")
            let to = try move.to.map { line throws(PastedRecurrenceError) in try Self.days(of: line, in: zone, part: "DTSTART") } ?? []
            guard from != to else { continue }
            excluded += from
            included += to
        }

        self.rule = try Self.dayLevelUntil(rules[0], in: zone)
        self.start = start?.first
        self.excluded = Array(Set(excluded)).sorted()
        self.included = Array(Set(included)).sorted()
        self.summary = summary.flatMap { $0.isEmpty ? nil : $0 }
        self.reminders = try Self.reminders(start: startLine, end: endLine, triggers: triggers, in: timeZone)
    }

    /// The reminder times of an event starting at `start` (and ending at `end`) with alarms
    /// triggered by `triggers`.
    static func reminders(start: ContentLine?, end: ContentLine?, triggers: [ContentLine],
                          in zone: TimeZone) throws(PastedRecurrenceError) -> [ReminderTime] {
        let startMinutes = start.flatMap { minutes(of: $0.value, in: Self.zone(of: $0, else: zone)) }
        guard !triggers.isEmpty else { return startMinutes.map { [ReminderTime(minutes: $0)] } ?? [] }
        var times = Set<ReminderTime>()
        for trigger in triggers {
            let value = trigger.value.trimmingCharacters(in: .whitespaces)
            let at: Int
            if trigger.parameters["VALUE"]?.uppercased() == "DATE-TIME" {
                guard let absolute = minutes(of: value, in: zone) else {
                    throw PastedRecurrenceError("TRIGGER: '\(value)' is not a date-time (YYYYMMDDTHHMMSSZ)")
                }
                at = absolute
            } else {
                guard let offset = durationMinutes(value) else {
                    throw PastedRecurrenceError("TRIGGER: '\(value)' is not a duration such as -PT15M or -P1DT2H")
                }
                let fromEnd = trigger.parameters["RELATED"]?.uppercased() == "END"
                let anchor = fromEnd ? end.flatMap { minutes(of: $0.value, in: Self.zone(of: $0, else: zone)) } ?? (end == nil ? startMinutes : 0) : startMinutes
                at = (anchor ?? 0) + offset
            }
            times.insert(ReminderTime(minutes: at))
        }
        return Array(times.sorted().prefix(ReminderTime.limit))
    }

    /// The zone a date-time line is written in: its `TZID` when the system knows it, else `zone`.
    static func zone(of line: ContentLine, else zone: TimeZone) -> TimeZone {
        line.parameters["TZID"].flatMap(TimeZone.init(identifier:)) ?? zone
    }

    /// Minutes after midnight of a date-time: a floating or zoned one as written, a UTC one
    /// (`…Z`) in `zone`; nil for a date (an all-day event has no time), 0 counted by the caller.
    static func minutes(of text: String, in zone: TimeZone) -> Int? {
        let characters = Array(text.uppercased())
        guard characters.count >= 15, characters[8] == "T",
              let hour = Int(String(characters[9..<11])), let minute = Int(String(characters[11..<13])), hour < 24, minute < 60 else { return nil }
        guard characters.count == 16, characters[15] == "Z" else { return hour * 60 + minute }
        guard let year = Int(String(characters[0..<4])), let month = Int(String(characters[4..<6])), let day = Int(String(characters[6..<8])),
              let date = try? LocalDay(year: year, month: month, day: day) else { return nil }
        let instant = date.firstInstant(in: .gmt).addingTimeInterval(TimeInterval(hour * 3_600 + minute * 60))
        let seconds = zone.secondsFromGMT(for: instant)
        return (((hour * 60 + minute + seconds / 60) % 1440) + 1440) % 1440
    }

    /// A duration's minutes (RFC 5545 §3.3.6: `[+|-]P[nW][nD][T[nH][nM][nS]]`), negative before.
    static func durationMinutes(_ text: String) -> Int? {
        var rest = Substring(text.uppercased())
        var sign = 1
        if rest.first == "-" { sign = -1; rest = rest.dropFirst() } else if rest.first == "+" { rest = rest.dropFirst() }
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var total = 0, number = "", inTime = false, any = false
        for character in rest {
            if character.isASCII && character.isNumber { number.append(character); continue }
            if character == "T" { guard !inTime, number.isEmpty else { return nil }; inTime = true; continue }
            guard let value = Int(number) else { return nil }
            number = ""
            any = true
            switch (character, inTime) {
            case ("W", false): total += value * 7 * 1440
            case ("D", false): total += value * 1440
            case ("H", true): total += value * 60
            case ("M", true): total += value
            case ("S", true): total += value / 60
            default: return nil
            }
        }
        guard any, number.isEmpty else { return nil }
        return sign * total
    }

    /// The `rrule` policy's parameters: `rule`, and `start`, `exclude`, `include` when given.
    /// `start` is left out when `habitStart` is the same day.
    public func parameters(habitStart: LocalDay?) -> [String: JSONValue] {
        var result: [String: JSONValue] = ["rule": .string(rule)]
        if let start, start != habitStart { result["start"] = .string(start.iso) }
        if !excluded.isEmpty { result["exclude"] = .array(excluded.map { .string($0.iso) }) }
        if !included.isEmpty { result["include"] = .array(included.map { .string($0.iso) }) }
        return result
    }

    /// What one VEVENT (or the loose lines) holds.
    private struct Event {
        var rules: [String] = []
        var start: ContentLine?
        var exdates: [ContentLine] = []
        var rdates: [ContentLine] = []
        var summary: String?
        var end: ContentLine?
        /// The event's alarms' `TRIGGER` lines.
        var triggers: [ContentLine] = []
        /// An event that changes one occurrence of another: the day it changes.
        var recurrenceID: ContentLine?
        var cancelled = false
    }

    /// One content line: `NAME;PARAM=VALUE;…:VALUE` (RFC 5545 §3.1), a parameter's value
    /// possibly quoted (a quoted value may hold `:` and `;`).
    struct ContentLine: Equatable {
        let name: String
        let parameters: [String: String]
        let value: String

        init(_ line: String) throws(PastedRecurrenceError) {
            var name = ""
            var parameters: [String: String] = [:]
            var index = line.startIndex
            func readUntil(_ stops: Set<Character>) -> String {
                var text = ""
                var quoted = false
                while index < line.endIndex {
                    let character = line[index]
                    if character == "\"" { quoted.toggle() } else if !quoted && stops.contains(character) { break } else { text.append(character) }
                    index = line.index(after: index)
                }
                return text
            }
            name = readUntil([";", ":"]).uppercased()
            while index < line.endIndex, line[index] == ";" {
                index = line.index(after: index)
                let parameter = readUntil([";", ":"])
                let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
                if pair.count == 2 { parameters[pair[0].uppercased()] = pair[1] }
            }
            guard index < line.endIndex, line[index] == ":", !name.isEmpty,
                  name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
                let shown = line.count > 60 ? String(line.prefix(60)) + "…" : line
                throw PastedRecurrenceError("'\(shown)' is not a calendar line (NAME:VALUE) nor a rule such as FREQ=WEEKLY;BYDAY=MO")
            }
            self.name = name
            self.parameters = parameters
            self.value = String(line[line.index(after: index)...]).trimmingCharacters(in: .whitespaces)
        }
    }

    /// The text's logical lines: CRLF, CR or LF end a line; a line starting with a space or a tab
    /// continues the one before (§3.1 folding). Blank lines are dropped.
    static func unfolded(_ text: String) -> [String] {
        var lines: [String] = []
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            if let first = raw.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1] += raw.dropFirst()
            } else {
                lines.append(String(raw))
            }
        }
        return lines.map(\.trimmedBlanks).filter { !$0.isEmpty }
    }

    /// A rule written without a property name: `FREQ=…;…`.
    static func isBareRule(_ line: String) -> Bool {
        let head = line.prefix { $0 != ":" && $0 != ";" }
        return head.contains("=")
    }

    /// TEXT values escape `\,`, `\;`, `\\` and `\n` (§3.3.11).
    static func unescaped(_ text: String) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                result.append(character == "n" || character == "N" ? " " : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// The days a DTSTART, EXDATE or RDATE line names (a comma list).
    static func days(of line: ContentLine, in zone: TimeZone, part: String) throws(PastedRecurrenceError) -> [LocalDay] {
        if let kind = line.parameters["VALUE"]?.uppercased(), kind != "DATE", kind != "DATE-TIME" {
            throw PastedRecurrenceError("\(part) with VALUE=\(kind) is not supported; give dates or date-times")
        }
        var days: [LocalDay] = []
        for item in line.value.split(separator: ",") {
            days.append(try day(of: String(item).trimmingCharacters(in: .whitespaces), in: zone, part: part))
        }
        guard !days.isEmpty else { throw PastedRecurrenceError("\(part) has no value") }
        return days
    }

    /// The day of `YYYYMMDD`, `YYYYMMDDTHHMMSS` (its date) or `YYYYMMDDTHHMMSSZ` (its date in `zone`).
    static func day(of text: String, in zone: TimeZone, part: String) throws(PastedRecurrenceError) -> LocalDay {
        let characters = Array(text.uppercased())
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= characters.count else { return nil }
            let slice = characters[range]
            guard slice.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(String(slice))
        }
        let shapes = characters.count == 8 || (characters.count == 15 && characters[8] == "T")
            || (characters.count == 16 && characters[8] == "T" && characters[15] == "Z")
        guard shapes, let year = number(0..<4), let month = number(4..<6), let dayOfMonth = number(6..<8),
              let day = try? LocalDay(year: year, month: month, day: dayOfMonth) else {
            throw PastedRecurrenceError("\(part): '\(text)' is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, optionally Z)")
        }
        guard characters.count == 16 else { return day }
        guard let hour = number(9..<11), let minute = number(11..<13), let second = number(13..<15),
              hour < 24, minute < 60, second < 61 else {
            throw PastedRecurrenceError("\(part): '\(text)' has no valid time of day")
        }
        let instant = day.firstInstant(in: .gmt).addingTimeInterval(TimeInterval(hour * 3_600 + minute * 60 + second))
        return LocalDay(date: instant, timeZone: zone)
    }

    /// The rule with a date-time `UNTIL` written as its day.
    static func dayLevelUntil(_ rule: String, in zone: TimeZone) throws(PastedRecurrenceError) -> String {
        var body = rule.trimmingCharacters(in: .whitespaces)
        if body.uppercased().hasPrefix("RRULE:") { body = String(body.dropFirst(6)) }
        var parts: [String] = []
        for part in body.split(separator: ";", omittingEmptySubsequences: true) {
            let pair = part.split(separator: "=", maxSplits: 1)
            if pair.count == 2, pair[0].uppercased() == "UNTIL" {
                parts.append("UNTIL=" + (try day(of: String(pair[1]), in: zone, part: "UNTIL")).basicISO)
            } else {
                parts.append(String(part))
            }
        }
        return parts.joined(separator: ";")
    }
}

extension LocalDay {
    /// `YYYYMMDD`, as RFC 5545 writes a DATE.
    var basicISO: String { iso.replacingOccurrences(of: "-", with: "") }
}
