import Foundation

/// How a caller names a habit: by its name (trimmed, ignoring case) or by its id.
public enum HabitReference: Hashable, Sendable, CustomStringConvertible {
    case name(String)
    case id(UUID)

    public var description: String {
        switch self {
        case .name(let name): "'\(name)'"
        case .id(let id): UUIDText.format(id)
        }
    }
}
