import StackDay

/// `skip`, `unskip`, `POST` and `DELETE /v1/habits/{name}/skips`: the day `on`, or `from` with an
/// optional `to` (default `from`), else today.
public struct SkipRequest: RequestType {
    public static let on = RequestField<LocalDay>.day("on", help: "The day (default: today).")
    public static let from = RequestField<LocalDay>.day("from", help: "The first day of a range.")
    public static let to = RequestField<LocalDay>.day("to", help: "The last day of a range.")
    public static let fields = [on.declaration, from.declaration, to.declaration]

    /// The days; nil is today.
    public var days: LocalDayRange?

    public init(days: LocalDayRange? = nil) {
        self.days = days
    }

    public init(_ fields: RequestFields) throws {
        switch (try fields[Self.on], try fields[Self.from], try fields[Self.to]) {
        case (let day?, nil, nil): self.init(days: LocalDayRange(day, day))
        case (nil, let from?, let to): self.init(days: LocalDayRange(from, to ?? from))
        case (nil, nil, nil): self.init()
        default: throw RequestError("give \(fields.label(Self.on)), or \(fields.label(Self.from)) with an optional \(fields.label(Self.to))")
        }
    }
}
