import Foundation

/// A message of the runner's pipe: a version byte, then each field as its tag and value, then a
/// 0. Its fields are declared once (`fields`), and that one list writes and reads it: a field
/// added is sent and read, one unknown to the reader or missing from the message is an error
/// naming it (`RunnerFrameError`), and a message of another version is refused whole.
protocol RunnerMessage: SendableMetatype {
    /// What errors call the message.
    static var messageName: String { get }
    static var fields: [RunnerField<Self>] { get }
    /// A message with every field at a placeholder, for reading into.
    init(unread: Void)
}

enum RunnerWire {
    /// The protocol's version: a server and its runners are one binary, and a frame of another
    /// version means a stale runner, which is refused rather than misread.
    static let version: UInt8 = 2
}

extension RunnerMessage {
    /// The message as a frame: the version, then its fields.
    var frame: RunnerFrame {
        var out = RunnerFrame()
        out.byte(RunnerWire.version)
        writeFields(to: &out)
        return out
    }

    /// A message from a frame `frame` wrote.
    init(reading bytes: [UInt8]) throws {
        var reader = RunnerFrameReader(bytes)
        let version = try reader.byte()
        guard version == RunnerWire.version else {
            throw RunnerFrameError(reason: "a \(Self.messageName) of protocol version \(version), not \(RunnerWire.version)")
        }
        self = try Self.readFields(from: &reader)
        guard reader.isAtEnd else { throw RunnerFrameError(reason: "a \(Self.messageName) with bytes after its end") }
    }

    func writeFields(to out: inout RunnerFrame) {
        for field in Self.fields {
            out.byte(field.tag)
            field.write(self, &out)
        }
        out.byte(0)
    }

    static func readFields(from reader: inout RunnerFrameReader) throws -> Self {
        var message = Self(unread: ())
        var seen = Set<UInt8>()
        while true {
            let tag = try reader.byte()
            if tag == 0 { break }
            guard let field = fields.first(where: { $0.tag == tag }) else {
                throw RunnerFrameError(reason: "a \(messageName) with field \(tag), which this build does not know")
            }
            guard seen.insert(tag).inserted else { throw RunnerFrameError(reason: "a \(messageName) with \(field.name) twice") }
            try field.read(&message, &reader)
        }
        if let missing = fields.first(where: { !seen.contains($0.tag) }) {
            throw RunnerFrameError(reason: "a \(messageName) without its \(missing.name)")
        }
        return message
    }
}
