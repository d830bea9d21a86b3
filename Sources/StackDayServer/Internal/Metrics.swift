import Foundation

/// The server's counters, in Prometheus' text format (`--metrics-listen`): requests by route and
/// status, latency, kept answers served and recomputed, policy failures by kind, store errors,
/// requests in flight.
///
/// `@unchecked Sendable`: every field is read and written holding `lock`.
public final class Metrics: @unchecked Sendable {
    private let lock = NSLock()
    private var requests: [RequestLabels: Int] = [:]
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
    private var latency = [Int](repeating: 0, count: Metrics.buckets.count)
    private var latencyCount = 0
    private var latencySum = 0.0
    private var kept = (served: 0, computed: 0)
    private var policyFailures: [String: Int] = [:]
    private var storeErrors = 0
    private var inFlight = 0

    public init() {}

    /// A request counter's labels, written out only when the counters are read: every request
    /// counts one, under the lock.
    private struct RequestLabels: Hashable {
        let route: String
        let status: Int

        var text: String { "route=\"\(Metrics.escape(route))\",status=\"\(status)\"" }
    }

    func begin() { lock.withLock { inFlight += 1 } }

    func end(route: String, status: Int, seconds: Double) {
        lock.withLock {
            inFlight -= 1
            requests[RequestLabels(route: route, status: status), default: 0] += 1
            for (index, bound) in Self.buckets.enumerated() where seconds <= bound { latency[index] += 1 }
            latencyCount += 1
            latencySum += seconds
        }
    }

    func keptAnswer(served: Bool) { lock.withLock { if served { kept.served += 1 } else { kept.computed += 1 } } }

    func policyFailed(_ kind: String) { lock.withLock { policyFailures[kind, default: 0] += 1 } }

    func storeFailed() { lock.withLock { storeErrors += 1 } }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// The exposition text, with `sessions` (the open browser sessions) and `connections` (the
    /// HTTP connections open) as gauges when known.
    public func text(sessions: Int?, connections: Int? = nil) -> String {
        lock.withLock {
            var lines: [String] = []
            lines += ["# HELP stackday_requests_total Requests answered, by route and status.", "# TYPE stackday_requests_total counter"]
            lines += requests.map { (labels: $0.key.text, count: $0.value) }.sorted { $0.labels < $1.labels }
                .map { "stackday_requests_total{\($0.labels)} \($0.count)" }
            lines += ["# HELP stackday_request_duration_seconds Time to answer a request.", "# TYPE stackday_request_duration_seconds histogram"]
            for (index, bound) in Self.buckets.enumerated() {
                lines.append("stackday_request_duration_seconds_bucket{le=\"\(bound)\"} \(latency[index])")
            }
            lines.append("stackday_request_duration_seconds_bucket{le=\"+Inf\"} \(latencyCount)")
            lines.append("stackday_request_duration_seconds_sum \(latencySum)")
            lines.append("stackday_request_duration_seconds_count \(latencyCount)")
            lines += ["# HELP stackday_kept_answers_total GET answers served from the kept answers, or computed.", "# TYPE stackday_kept_answers_total counter"]
            lines.append("stackday_kept_answers_total{result=\"served\"} \(kept.served)")
            lines.append("stackday_kept_answers_total{result=\"computed\"} \(kept.computed)")
            lines += ["# HELP stackday_policy_failures_total Requests a policy failed, by kind.", "# TYPE stackday_policy_failures_total counter"]
            for kind in ["budget", "error"] { lines.append("stackday_policy_failures_total{kind=\"\(kind)\"} \(policyFailures[kind] ?? 0)") }
            lines += ["# HELP stackday_store_errors_total Requests the store failed.", "# TYPE stackday_store_errors_total counter",
                      "stackday_store_errors_total \(storeErrors)"]
            lines += ["# HELP stackday_requests_in_flight Requests being answered.", "# TYPE stackday_requests_in_flight gauge",
                      "stackday_requests_in_flight \(inFlight)"]
            if let connections {
                lines += ["# HELP stackday_connections_open HTTP connections open, idle ones included.", "# TYPE stackday_connections_open gauge",
                          "stackday_connections_open \(connections)"]
            }
            if let sessions {
                lines += ["# HELP stackday_sessions Browser sessions not expired.", "# TYPE stackday_sessions gauge", "stackday_sessions \(sessions)"]
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
