/// Two small streak policies the tests install as a user's own: one that never resets, one that
/// resets on a miss (each with its example, as `policy install` requires).
public enum StreakScripts {
    public static let counting = """
    -- Counts completed days; nothing resets.
    return {
      streak = function(state, day, outcome)
        if outcome.status == "completed" then state.current = state.current + 1 end
        if state.current > state.longest then state.longest = state.current end
        return state
      end,
      examples = { { history = "YNY", current = 2, longest = 2 } },
    }
    """
    public static let resetting = """
    -- A miss resets the streak.
    return {
      streak = function(state, day, outcome)
        if outcome.status == "completed" then state.current = state.current + 1 end
        if outcome.status == "missed" then state.current = 0 end
        if state.current > state.longest then state.longest = state.current end
        return state
      end,
      examples = { { history = "YNY", current = 1, longest = 1 } },
    }
    """
}
