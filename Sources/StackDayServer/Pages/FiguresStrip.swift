import StackDay

/// The four figures a habit's or a group's page opens with: current and longest streak,
/// completion rate and strength, each in its `data-field`.
enum FiguresStrip {
    static func render(_ stats: HabitStatistics, countsIn unit: CountUnit, words: PageWords) -> HTML {
        var html: HTML = "<div class=\"stats\">"
        html += "<div><span>\(words["Current streak"])</span><strong data-field=\"current\">\(words.count(stats.streak.current, unit))</strong></div>"
        html += "<div><span>\(words["Longest streak"])</span><strong data-field=\"longest\">\(words.count(stats.streak.longest, unit))</strong></div>"
        html += "<div><span>\(words["Completion rate"])</span><strong data-field=\"rate\">\(Int((stats.completionRate * 100).rounded()))%</strong></div>"
        html += "<div><span>\(words["Habit strength"])</span><strong data-field=\"score\">\(Int((stats.score * 100).rounded()))%</strong></div>"
        return html + "</div>"
    }
}
