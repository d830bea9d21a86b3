import Foundation

/// A route table, built once: each route is a method, a pattern of literal segments and captures
/// (`habits/:name/records`), and a handler. A path is split into segments at `/` **before** each
/// segment is percent-decoded, so a captured name may hold `/`, `%`, spaces or any text
/// (`a%2Fb` is the one segment `a/b`, never two) and can never reach another endpoint.
public struct Router<Handler>: Sendable where Handler: Sendable {
    enum Segment: Equatable, Sendable {
        case literal(String)
        case capture
    }

    struct Route: Sendable {
        let method: String
        let pattern: [Segment]
        let text: String
        let handler: Handler
    }

    /// What a method and a path resolve to.
    public enum Match {
        /// The handler and the decoded captures, in order.
        case found(Handler, [String])
        /// The path is known, but not for this method; the methods it takes.
        case methodNotAllowed([String])
        case notFound
    }

    private let routes: [Route]

    /// Routes in the order they are tried: `(method, pattern, handler)`; a pattern segment that
    /// starts with `:` captures one non-empty segment.
    public init(_ routes: [(method: String, pattern: String, handler: Handler)]) {
        self.routes = routes.map { route in
            Route(method: route.method, pattern: route.pattern.split(separator: "/").map {
                $0.hasPrefix(":") ? .capture : .literal(String($0))
            }, text: route.pattern, handler: route.handler)
        }
    }

    /// A raw path (`/v1/habits/a%2Fb`) as decoded segments (`["v1", "habits", "a/b"]`); nil when
    /// a segment's percent-encoding is not valid UTF-8.
    public static func segments(of rawPath: String) -> [String]? {
        var parts = rawPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.first == "" { parts.removeFirst() }
        var decoded: [String] = []
        for part in parts {
            guard let text = PercentDecoding.decoded(part) else { return nil }
            decoded.append(text)
        }
        return decoded
    }

    /// Every route as it was given, in order: what an API document is made from.
    public var entries: [(method: String, pattern: String, handler: Handler)] {
        routes.map { ($0.method, $0.text, $0.handler) }
    }

    /// The pattern (`habits/:name`) of the route `method` on `segments` reaches, if one does.
    public func pattern(_ method: String, _ segments: [String]) -> String? {
        routes.first { $0.method == method && Self.captures($0.pattern, segments) != nil }?.text
    }

    /// The route for `method` on `segments` (already decoded).
    public func match(_ method: String, _ segments: [String]) -> Match {
        var allowed: [String] = []
        for route in routes {
            guard let captures = Self.captures(route.pattern, segments) else { continue }
            if route.method == method { return .found(route.handler, captures) }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
    }

    private static func captures(_ pattern: [Segment], _ segments: [String]) -> [String]? {
        guard pattern.count == segments.count else { return nil }
        var captures: [String] = []
        for (part, segment) in zip(pattern, segments) {
            switch part {
            case .capture:
                guard !segment.isEmpty else { return nil }
                captures.append(segment)
            case .literal(let text):
                guard text == segment else { return nil }
            }
        }
        return captures
    }
}
