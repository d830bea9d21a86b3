@testable import StackDayServer
import Testing

@Suite("metrics")
struct MetricsTests {
    @Test("requests are counted by route and status; labels are escaped and in order when read")
    func requestCounters() {
        let metrics = Metrics()
        for (route, status) in [("habits/:name", 200), ("today", 200), ("habits/:name", 200), ("odd \"route\\\n", 404), ("habits/:name", 404)] {
            metrics.begin()
            metrics.end(route: route, status: status, seconds: 0.002)
        }
        let lines = metrics.text(sessions: nil).split(separator: "\n").filter { $0.hasPrefix("stackday_requests_total{") }
        #expect(lines == [
            #"stackday_requests_total{route="habits/:name",status="200"} 2"#,
            #"stackday_requests_total{route="habits/:name",status="404"} 1"#,
            #"stackday_requests_total{route="odd \"route\\\n",status="404"} 1"#,
            #"stackday_requests_total{route="today",status="200"} 1"#,
        ])
        #expect(metrics.text(sessions: nil).contains("stackday_requests_in_flight 0"))
        #expect(metrics.text(sessions: nil).contains("stackday_request_duration_seconds_count 5"))
    }
}
