import Foundation
import StackDay
import StackDayApplication
import StackDayEngine

/// The browser side: `GET /` (the dashboard, or the sign-in page), `POST /session` (a token from
/// the sign-in form becomes an HttpOnly, SameSite=Strict session cookie) and `POST /session/end`.
struct DashboardRoutes {
    static let cookie = "stackday_session"

    let request: HTTPRequest
    let clock: any StackDay.Clock

    /// The token a session cookie carries.
    var sessionToken: String? {
        guard let header = request.cookie else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces)
            if pair.hasPrefix(Self.cookie + "=") { return String(pair.dropFirst(Self.cookie.count + 1)) }
        }
        return nil
    }

    func answer(_ path: String, contexts: OwnerContexts, user: inout String?) throws -> HTTPResponse {
        switch (request.method, path) {
        case ("GET", "/"):
            guard let token = sessionToken, let account = try Tokens.user(of: token, contexts) else { return .html(SignInPage().render()) }
            user = account.name
            return .html(try dashboard(for: account, contexts))
        case ("POST", "/session"):
            let token = Self.formValue("token", in: request.body) ?? ""
            guard let account = try Tokens.user(of: token, contexts) else {
                return .html(SignInPage(error: "That token belongs to no user.").render(), status: 401)
            }
            user = account.name
            return .redirect(to: "/", setCookie: "\(Self.cookie)=\(token); Path=/; HttpOnly; SameSite=Strict")
        case ("POST", "/session/end"):
            return .redirect(to: "/", setCookie: "\(Self.cookie)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")
        case (_, "/"), (_, "/session"), (_, "/session/end"):
            throw APIError.methodNotAllowed(request.method)
        default:
            throw APIError.notFound("no such page: \(request.path)")
        }
    }

    /// A field of an `application/x-www-form-urlencoded` body.
    static func formValue(_ name: String, in body: [UInt8]) -> String? {
        let text = String(decoding: body, as: UTF8.self)
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == name[...] else { continue }
            return String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        return nil
    }

    func dashboard(for account: User, _ contexts: OwnerContexts) throws -> String {
        let context = try contexts.context(for: account.name, clock: clock, boundary: account.boundary)
        return DashboardPage(title: "StackDay", user: account.name, view: try Application(context: context).dashboard(language: .english)).render()
    }
}
