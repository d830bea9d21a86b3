import StackDay

/// What the dashboard page and `report html` show: today's habits, the week's report, and per
/// habit its timeline with its score series (or why its policy failed).
public struct DashboardView: Sendable {
    /// One habit's panel.
    public struct Panel: Sendable {
        public let habit: Habit
        public let content: Result<Content, HabitFailure>
    }

    /// A habit's days and its score after each day.
    public struct Content: Sendable {
        public let timeline: HabitTimeline
        public let scores: [Score]
    }

    /// The habit strength after one day.
    public struct Score: Sendable {
        public let day: LocalDay
        public let score: Double
    }

    public let today: TodayView
    public let week: WeekReportView
    public let panels: [Panel]
}
