import Foundation

/// One field of a runner message, declared once: its tag and name, and how its value is written
/// and read. A message's list of these is both its encoder and its decoder (`RunnerMessage`).
struct RunnerField<Message>: Sendable {
    let tag: UInt8
    let name: String
    let write: @Sendable (Message, inout RunnerFrame) -> Void
    let read: @Sendable (inout Message, inout RunnerFrameReader) throws -> Void

    init(_ tag: UInt8, _ name: String, write: @escaping @Sendable (Message, inout RunnerFrame) -> Void,
         read: @escaping @Sendable (inout Message, inout RunnerFrameReader) throws -> Void) {
        precondition(tag != 0, "tag 0 ends a message")
        self.tag = tag
        self.name = name
        self.write = write
        self.read = read
    }
}

/// Fields of the value kinds the messages hold, each at a key path of the message.
extension RunnerField {
    static func int(_ tag: UInt8, _ name: String, _ path: WritableKeyPath<Message, Int> & Sendable) -> Self {
        Self(tag, name, write: { $1.int($0[keyPath: path]) }, read: { $0[keyPath: path] = try $1.int() })
    }

    static func double(_ tag: UInt8, _ name: String, _ path: WritableKeyPath<Message, Double> & Sendable) -> Self {
        Self(tag, name, write: { $1.double($0[keyPath: path]) }, read: { $0[keyPath: path] = try $1.double() })
    }

    static func bool(_ tag: UInt8, _ name: String, _ path: WritableKeyPath<Message, Bool> & Sendable) -> Self {
        Self(tag, name, write: { $1.bool($0[keyPath: path]) }, read: { $0[keyPath: path] = try $1.bool() })
    }

    static func string(_ tag: UInt8, _ name: String, _ path: WritableKeyPath<Message, String> & Sendable) -> Self {
        Self(tag, name, write: { $1.string($0[keyPath: path]) }, read: { $0[keyPath: path] = try $1.string() })
    }

    static func optionalString(_ tag: UInt8, _ name: String, _ path: WritableKeyPath<Message, String?> & Sendable) -> Self {
        Self(tag, name, write: { $1.optionalString($0[keyPath: path]) }, read: { $0[keyPath: path] = try $1.optionalString() })
    }

    static func bytes(_ tag: UInt8, _ name: String, _ path: WritableKeyPath<Message, [UInt8]> & Sendable) -> Self {
        Self(tag, name, write: { $1.raw($0[keyPath: path]) }, read: { $0[keyPath: path] = try $1.raw() })
    }

    static func doubles(_ tag: UInt8, _ name: String, _ path: WritableKeyPath<Message, [Double]> & Sendable) -> Self {
        Self(tag, name, write: { $1.doubles($0[keyPath: path]) }, read: { $0[keyPath: path] = try $1.doubles() })
    }

    static func ints(_ tag: UInt8, _ name: String, _ path: WritableKeyPath<Message, [Int]> & Sendable) -> Self {
        Self(tag, name, write: { $1.ints($0[keyPath: path]) }, read: { $0[keyPath: path] = try $1.ints() })
    }

    static func strings(_ tag: UInt8, _ name: String, _ path: WritableKeyPath<Message, [String]> & Sendable) -> Self {
        Self(tag, name, write: { message, out in
            out.int(message[keyPath: path].count)
            for item in message[keyPath: path] { out.string(item) }
        }, read: { message, reader in
            message[keyPath: path] = try reader.count(limit: 1 << 20).map { _ in try reader.string() }
        })
    }

    /// A value that may be absent: a flag, then the value when present.
    static func optional<Value>(_ tag: UInt8, _ name: String, _ path: WritableKeyPath<Message, Value?> & Sendable,
                                write: @escaping @Sendable (Value, inout RunnerFrame) -> Void,
                                read: @escaping @Sendable (inout RunnerFrameReader) throws -> Value) -> Self {
        Self(tag, name, write: { message, out in
            out.bool(message[keyPath: path] != nil)
            if let value = message[keyPath: path] { write(value, &out) }
        }, read: { message, reader in
            message[keyPath: path] = try reader.bool() ? try read(&reader) : nil
        })
    }

    /// A list of nested messages, each with its own fields and end.
    static func messages<Nested: RunnerMessage>(_ tag: UInt8, _ name: String, _ path: WritableKeyPath<Message, [Nested]> & Sendable) -> Self {
        Self(tag, name, write: { message, out in
            out.int(message[keyPath: path].count)
            for item in message[keyPath: path] { item.writeFields(to: &out) }
        }, read: { message, reader in
            message[keyPath: path] = try reader.count(limit: 1024).map { _ in try Nested.readFields(from: &reader) }
        })
    }
}
