/// The language of a page: the user's setting, else the first of `Accept-Language` that is one
/// of StackDay's (`en`, `ko`), else English.
enum PageLanguage: String, Sendable {
    case en, ko

    init(setting: String?, acceptLanguage: String?) {
        if let setting, let chosen = PageLanguage(rawValue: setting) {
            self = chosen
            return
        }
        for part in (acceptLanguage ?? "").split(separator: ",") {
            let tag = part.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            if tag.hasPrefix("ko") { self = .ko; return }
            if tag.hasPrefix("en") { self = .en; return }
        }
        self = .en
    }
}
