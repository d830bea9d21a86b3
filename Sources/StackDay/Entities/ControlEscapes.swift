/// Control characters written as `\xNN` escapes, for text from elsewhere (a habit name, a path)
/// shown where they would act: a terminal, a log line. A name stored by an older build that held
/// an escape sequence is shown as its characters, never sent to the terminal as a command.
public enum ControlEscapes {
    /// Whether `scalar` is a control character (C0, DEL, C1).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `text` with each control character as `\xNN`, except those in `keeping` (a terminal's
    /// line break and tab: a list of two or three, searched in turn). With `backslashes`, a backslash is doubled (a log reader can then tell
    /// an escape from a backslash sent); with `styles`, a colour sequence (`ESC [ 1;32 m`, the
    /// only kind the command line writes) passes through as it is.
    public static func escaped(_ text: String, keeping: [Unicode.Scalar] = [], backslashes: Bool = false, styles: Bool = false) -> String {
        let scalars = text.unicodeScalars
        guard scalars.contains(where: { (isControl($0) && !keeping.contains($0)) || (backslashes && $0 == "\\") }) else { return text }
        var out = String.UnicodeScalarView()
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if styles, scalar == "\u{1B}", let end = styleEnd(scalars, from: index) {
                out.append(contentsOf: scalars[index..<end])
                index = end
                continue
            }
            if backslashes, scalar == "\\" {
                out.append(contentsOf: "\\\\".unicodeScalars)
            } else if isControl(scalar), !keeping.contains(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append(contentsOf: ("\\x" + (hex.count < 2 ? "0" : "") + hex).unicodeScalars)
            } else {
                out.append(scalar)
            }
            index = scalars.index(after: index)
        }
        return String(out)
    }

    /// The end of a colour sequence (`ESC [`, digits and semicolons, `m`) starting at `start`.
    private static func styleEnd(_ scalars: String.UnicodeScalarView, from start: String.UnicodeScalarView.Index) -> String.UnicodeScalarView.Index? {
        var index = scalars.index(after: start)
        guard index < scalars.endIndex, scalars[index] == "[" else { return nil }
        index = scalars.index(after: index)
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "m" { return scalars.index(after: index) }
            guard scalar == ";" || ("0"..."9").contains(scalar) else { return nil }
            index = scalars.index(after: index)
        }
        return nil
    }
}
