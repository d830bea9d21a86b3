import StackDayApplication

/// What the API document says of one route: its summary, the request type its query or body
/// decodes to (whose field declarations become the parameters and the body's schema), its
/// success status and the schema of its answer.
struct EndpointDoc: Sendable {
    /// What a request's body is.
    enum Body: Sendable {
        /// The JSON object of a request type's HTTP fields.
        case json(any RequestType.Type)
        /// A schema of `ViewSchema.bodies` made by hand (the sync exchange).
        case schema(String)
        /// A policy's Lua source as text.
        case lua
    }

    let summary: String
    /// The request type whose fields are the query arguments.
    let query: (any RequestType.Type)?
    let body: Body?
    let status: Int
    let answer: String?
    /// The answer is text unless asked for JSON (`format=json`).
    let text: Bool

    init(_ summary: String, query: (any RequestType.Type)? = nil, body: Body? = nil, status: Int = 200, answer: String?, text: Bool = false) {
        self.summary = summary
        self.query = query
        self.body = body
        self.status = status
        self.answer = answer
        self.text = text
    }
}
