import Foundation

/// Percent-decoding of what a request's path holds, where most text holds no escape: that text
/// is kept as it is, and only text with a `%` goes through Foundation's decoder.
enum PercentDecoding {
    /// `text` with its `%XX` escapes decoded; nil when they do not make valid UTF-8.
    static func decoded(_ text: some StringProtocol) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        return text.removingPercentEncoding
    }
}
