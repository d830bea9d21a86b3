import StackDay
import StackDayServer

/// `report html`: the dashboard's page (today, the weekly report, a year heatmap and a score line
/// per habit), self-contained, without a signed-in user.
struct HTMLReport {
    let title: String
    let context: HabitContext
    let weekText: String

    func render() throws -> String {
        let summaries = try SummarizeHabits(context: context)(includeArchived: false)
        let timelines = try LoadTimeline(context: context).all()
        let panels = timelines.map { result in
            switch result {
            case .success(let timeline): DashboardPage.HabitPanel(habit: timeline.habit, content: .success((timeline, HabitStatisticsCalculator.scores(timeline))))
            case .failure(let failure): DashboardPage.HabitPanel(habit: failure.habit, content: .failure(failure))
            }
        }
        return DashboardPage(title: title, user: nil, today: context.today, todayRows: summaries.filter { (try? $0.get().today) != nil || $0.failure != nil },
                             weekText: weekText, panels: panels).render()
    }
}
