/// What the API document says of one route: a summary, its query arguments, its body (a
/// `ViewSchema.bodies` name, or `lua` for a script's text), and its answer (a
/// `ViewSchema.components` name; nil for none).
struct EndpointDoc: Sendable {
    /// A query argument.
    struct Query: Sendable {
        let name: String
        let type: String
        let format: String?
        let description: String

        static let active = Query(name: "active", type: "boolean", format: nil, description: "Leave archived habits out")
        static let archived = Query(name: "archived", type: "boolean", format: nil, description: "Only the archived habits (not with active)")
        static let on = Query(name: "on", type: "string", format: "date", description: "The day (default: today)")
        static let from = Query(name: "from", type: "string", format: "date", description: "The first day")
        static let to = Query(name: "to", type: "string", format: "date", description: "The last day (default: today)")
        static let habit = Query(name: "habit", type: "string", format: nil, description: "Only this habit")
        static let weekOf = Query(name: "weekOf", type: "string", format: "date", description: "Any day of the week (default: today)")
        static let lang = Query(name: "lang", type: "string", format: nil, description: "en or ko")
        static let format = Query(name: "format", type: "string", format: nil, description: "json for the JSON report")
        static let limit = Query(name: "limit", type: "integer", format: nil, description: "Records a page (default 100, at most 1000)")
        static let cursor = Query(name: "cursor", type: "string", format: nil, description: "Where the page starts: the previous page's next")
    }

    let summary: String
    let query: [Query]
    let body: String?
    let status: Int
    let answer: String?
    /// The answer is text unless asked for JSON (`format=json`).
    let text: Bool
    /// Answered without a token (`StackDayAPI` takes it before authentication).
    let open: Bool

    init(_ summary: String, query: [Query] = [], body: String? = nil, status: Int = 200, answer: String?, text: Bool = false, open: Bool = false) {
        self.summary = summary
        self.query = query
        self.body = body
        self.status = status
        self.answer = answer
        self.text = text
        self.open = open
    }
}
