/// Where a group stands on one day, from its members' days and its rule's progress: what its
/// streak rule walks and every surface shows.
public enum GroupDayState {
    /// The state of a group's day: `notDue` when no member is due, `skipped` when every due
    /// member was skipped (and the rule is not met), else as a habit's day: `completed` at a
    /// progress of 1, `pending` today, `missed` before; `upcoming` after today.
    public static func state(day: LocalDay, today: LocalDay, members: [GroupMemberDay], progress: Double) -> EntryState {
        if day > today { return .upcoming }
        let due = members.filter(\.isDue)
        if due.isEmpty { return .notDue }
        if progress >= 1 { return .completed }
        if due.allSatisfy({ $0.state == .skipped }) { return .skipped }
        return day == today ? .pending : .missed
    }

    /// The group's day as an entry a streak rule folds over: due when a member is, its total
    /// the members done that day.
    public static func entry(day: LocalDay, today: LocalDay, members: [GroupMemberDay], progress: Double) -> HabitEntry {
        HabitEntry(day: day, isDue: members.contains(where: \.isDue),
                   total: Double(members.filter { $0.state == .completed }.count), progress: progress,
                   state: state(day: day, today: today, members: members, progress: progress))
    }
}
