import StackDay

/// The one place a request becomes use-case input and a result becomes a view, for every
/// surface: the command line and the API parse their input into `RequestFields`, call the same
/// operation here, and print or answer the view it returns (`JSONView.json`, one encoding).
///
/// Defaults, the fields each operation takes, options that exclude each other, and the day a
/// request means when it names none are decided here and nowhere else.
public struct Application {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// Today for the context's user.
    public var today: LocalDay { context.today }
}
