import CLuaHost
import StackDay

/// One day as a streak rule sees it.
public struct StreakOutcome: Hashable, Sendable {
    public enum Status: String, Sendable, CaseIterable {
        case completed, missed, pending, skipped, notDue

        var code: UInt8 {
            switch self {
            case .completed: UInt8(SD_COMPLETED)
            case .missed: UInt8(SD_MISSED)
            case .pending: UInt8(SD_PENDING)
            case .skipped: UInt8(SD_SKIPPED)
            case .notDue: UInt8(SD_NOT_DUE)
            }
        }

        /// The status a code stands for (a runner call's statuses); nil for a code of none.
        init?(code: UInt8) {
            guard let status = Self.allCases.first(where: { $0.code == code }) else { return nil }
            self = status
        }

        /// The entry state the status stands for.
        public var entryState: EntryState {
            switch self {
            case .completed: .completed
            case .missed: .missed
            case .pending: .pending
            case .skipped: .skipped
            case .notDue: .notDue
            }
        }

        /// The status of a timeline entry (days after today never reach a streak rule).
        public init(_ state: EntryState) {
            switch state {
            case .completed: self = .completed
            case .missed: self = .missed
            case .pending: self = .pending
            case .skipped: self = .skipped
            case .notDue, .upcoming: self = .notDue
            }
        }
    }

    public let status: Status
    public let isDue: Bool
    public let total: Double
    public let progress: Double

    public init(status: Status, isDue: Bool, total: Double, progress: Double) {
        self.status = status
        self.isDue = isDue
        self.total = total
        self.progress = progress
    }
}
