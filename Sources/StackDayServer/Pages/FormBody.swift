/// An `application/x-www-form-urlencoded` body: its fields in order (a key may repeat, as
/// checkboxes do).
struct FormBody {
    let fields: [(key: String, value: String)]

    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        fields = text.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String? { String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let key = decode(parts[0]), let value = parts.count == 2 ? decode(parts[1]) : "" else { return nil }
            return (key, value)
        }
    }

    /// The last value of `key`.
    subscript(_ key: String) -> String? { fields.last { $0.key == key }?.value }
}
