extension Result where Success == GroupSummary, Failure == GroupFailure {
    /// The group judged, whether its figures were computed or its rules failed.
    public var group: HabitGroup {
        switch self {
        case .success(let summary): summary.group
        case .failure(let failure): failure.group
        }
    }
}
