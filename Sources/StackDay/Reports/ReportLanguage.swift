/// The language reports are printed in.
public enum ReportLanguage: String, CaseIterable, Sendable {
    case english = "en"
    case korean = "ko"
}
