/// A subcommand known by its name and built only when it is needed (`CommandSpec.deferred`).
struct DeferredCommand {
    let name: String
    let make: () -> CommandSpec

    init(_ name: String, _ make: @escaping () -> CommandSpec) {
        self.name = name
        self.make = make
    }
}
