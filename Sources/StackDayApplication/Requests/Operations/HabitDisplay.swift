import StackDay

/// What `habit add` and `habit edit` take besides rules: how the habit looks and is tapped. Each
/// is nil when not given; neither is a rule, so changing one writes no revision.
public struct HabitDisplay: Sendable {
    public static let colorTag = RequestField<String>.choice(
        "colorTag", among: HabitColor.allCases.map(\.rawValue) + ["none"],
        help: "A colour to recognise the habit by: \(HabitColor.names), or none.", valueName: "colour"
    )
    public static let step = RequestField<Double>.number("step", help: "The amount one tap of + records on the web (default: 1).", valueName: "amount")

    public static let question = RequestField<String>.text("question", help: "What the habit asks, such as \"Did you read today?\" (empty: none).",
                                                           valueName: "text")
    public static let description = RequestField<String>.text("description", help: "What the habit is for, in your words (empty: none).",
                                                              valueName: "text")

    public static let fields = [colorTag.declaration, step.declaration, question.declaration, description.declaration]

    /// `.some(nil)`: no colour (`none`).
    public var colorTag: HabitColor??
    public var step: Double?
    /// A question or description as given; empty takes it away.
    public var question: String?
    public var details: String?

    public init(colorTag: HabitColor?? = .none, step: Double? = nil, question: String? = nil, details: String? = nil) {
        self.colorTag = colorTag
        self.step = step
        self.question = question
        self.details = details
    }

    init(_ fields: RequestFields) throws {
        colorTag = try fields[Self.colorTag].map { HabitColor(rawValue: $0) }
        step = try fields[Self.step]
        question = try fields[Self.question]
        details = try fields[Self.description]
    }

    /// The step as a habit keeps it: nil for 1, the default.
    var storedStep: Double?? { step.map { $0 == 1 ? nil : $0 } }
}
