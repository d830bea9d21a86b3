/// The journey a policy's author walks on every surface (write, test, install, list, simulate,
/// apply from a day, explain, roll back), over one history: a reading habit begun on 2026-10-01,
/// looked at on the evening of 2026-11-20 in Seoul, missed on the days below. Under `strict` its
/// streak is short; under "two misses in a row break it" from November it runs on.
public enum PolicyJourney {
    /// The instant the journey is walked at, and its zone.
    public static let now = "2026-11-20T21:00:00+09:00"
    public static let nowSeconds: Double = 1_795_176_000
    public static let start = "2026-10-01"
    /// The day the new rule judges from.
    public static let from = "2026-11-01"

    /// The days `read` was missed (two in a row once before November, single ones after).
    public static let missed: Set<String> = ["2026-10-09", "2026-10-20", "2026-10-21", "2026-11-05", "2026-11-13"]

    /// Every day from the start through today that was met.
    public static var metDays: [String] {
        var days: [String] = []
        for (month, last) in [(10, 31), (11, 20)] {
            for day in 1...last {
                let text = "2026-\(month)-" + (day < 10 ? "0\(day)" : "\(day)")
                if !missed.contains(text) { days.append(text) }
            }
        }
        return days
    }

    /// The author's rule: two misses in a row break the streak; a single one is forgiven. It
    /// traces each forgiven miss, has examples (so it installs) and a failing-free test.
    public static let twoMisses = """
    -- Two misses in a row break the streak; one alone is forgiven.
    return {
      description = "Two misses in a row break the streak",
      examples = {
        { history = "YYNYY", current = 4, longest = 4 },
        { history = "YYNNY", current = 1, longest = 2 },
      },
      tests = {
        { name = "pending today keeps it", history = "YNP", current = 1, longest = 1 },
      },
      initial = function(params) return { current = 0, longest = 0, missed = 0 } end,
      streak = function(state, day, outcome, params)
        if outcome.status == "completed" then
          state.current = state.current + 1
          state.missed = 0
          if state.current > state.longest then state.longest = state.current end
        elseif outcome.status == "missed" then
          state.missed = state.missed + 1
          if state.missed >= 2 then
            state.current = 0
          else
            trace("forgiven", day.iso)
          end
        end
        return state
      end,
    }
    """
}
