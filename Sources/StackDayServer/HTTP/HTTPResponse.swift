import StackDay

/// What a handler answers.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    public var setCookie: String?
    public var location: String?
    /// More headers (`ETag`, `Cache-Control`, …), in order.
    public var headers: [(name: String, value: String)] = []

    public init(status: Int, contentType: String, body: [UInt8], setCookie: String? = nil, location: String? = nil) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.setCookie = setCookie
        self.location = location
    }

    /// 303 See Other to `location`.
    public static func redirect(to location: String, setCookie: String? = nil) -> HTTPResponse {
        HTTPResponse(status: 303, contentType: "text/plain; charset=utf-8", body: [], setCookie: setCookie, location: location)
    }

    public static func html(_ page: String, status: Int = 200) -> HTTPResponse {
        text(page, status: status, contentType: "text/html; charset=utf-8")
    }

    /// JSON as the command line prints it: one line, keys sorted, a newline.
    public static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: value.jsonBytes + [0x0A])
    }

    /// 201 with `value` and the `Location` of what was made.
    public static func created(_ value: JSONValue, at location: String) -> HTTPResponse {
        var response = json(value, status: 201)
        response.headers.append(("Location", location))
        return response
    }

    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, contentType: contentType, body: Array(text.utf8))
    }

    /// `{"error": {"code", "message"}}` with the code's status.
    public static func error(_ message: String, code: ErrorCode) -> HTTPResponse {
        json(ErrorCode.body(code, message), status: StackDayAPI.status(of: code))
    }
}
