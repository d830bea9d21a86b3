import StackDay
import StackDayApplication

/// `/policies`: the scripts the user installed, with their sources; the built-ins, each
/// openable read-only as a starting point; and the editor, which runs the install pipeline and
/// shows each failure beside the line of the source it names.
struct PoliciesPage {
    let installed: [PolicyScript]
    let builtIns: [String]
    /// The built-in opened read-only, if one was.
    let opened: PolicyScript?
    /// What the editor holds: the last name and source sent, or the opened built-in's.
    let name: String
    let source: String
    /// The failures of the last install, and the script just installed.
    let refusal: PolicyRefusal?
    let justInstalled: String?
    let words: PageWords
    let csrf: String

    func render(user: String) -> String {
        var body = "<h2>\(words["Policies"])</h2>"
        if let justInstalled { body += "<p role=\"status\" id=\"installed\">\(words["Installed"]): \(HTMLText.escape(justInstalled))</p>" }
        body += "<h3>\(words["Policy editor"])</h3>"
        if let refusal {
            body += "<div role=\"alert\" id=\"failures\"><p class=\"error\">\(words["The checks refused the script:"])</p><ul class=\"failures\">"
            for failure in refusal.failures {
                let line = Self.line(of: failure, policy: refusal.policy)
                body += "<li\(line.map { " data-line=\"\($0)\"" } ?? "")>\(HTMLText.escape(failure))</li>"
            }
            body += "</ul></div>"
        }
        body += "<form method=\"post\" action=\"/policies\" data-form=\"policy-editor\">\(PageShell.csrfField(csrf))"
            + "<label for=\"policy-name\">\(words["Name"])</label><input id=\"policy-name\" name=\"name\" required maxlength=\"64\" pattern=\"[A-Za-z0-9_\\-]{1,64}\" value=\"\(HTMLText.escape(name))\">"
            + "<label for=\"policy-source\">\(words["Source"])</label><textarea id=\"policy-source\" name=\"source\" rows=\"16\" spellcheck=\"false\" style=\"width:100%;font-family:ui-monospace,monospace\">\(HTMLText.escape(source))</textarea>"
            + "<p><button class=\"primary\" type=\"submit\">\(words["Install"])</button></p></form>"
        if let refusal {
            // The source with its lines numbered, the failing ones marked.
            let failing = Set(refusal.failures.compactMap { Self.line(of: $0, policy: refusal.policy) })
            body += "<ol class=\"source\">" + source.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, text in
                let number = index + 1
                return "<li id=\"line-\(number)\"\(failing.contains(number) ? " data-failed-line=\"\(number)\" class=\"error\"" : "")><code>\(HTMLText.escape(String(text)))</code></li>"
            }.joined() + "</ol>"
        }
        // The user's own scripts in full; the built-ins' versions the habits are pinned to (stored
        // with them, under built-in names) by name and hash only, folded away.
        let names = Set(builtIns)
        let own = installed.filter { !names.contains($0.name) }
        let pinned = installed.filter { names.contains($0.name) }
        body += "<h3>\(words["Installed policies"])</h3>"
        if own.isEmpty { body += "<p>\(words["Nothing installed yet."])</p>" }
        for script in own {
            body += "<section class=\"script\" data-policy=\"\(HTMLText.escape(script.name))\"><h4>\(HTMLText.escape(script.name)) <code>\(script.shortHash)</code></h4>"
                + "<pre>\(HTMLText.escape(script.source))</pre></section>"
        }
        if !pinned.isEmpty {
            body += "<details data-pinned-builtins><summary>\(words["Built-in versions your habits run"]) (\(pinned.count))</summary><ul class=\"pinned\">"
            body += pinned.map { "<li data-policy=\"\(HTMLText.escape($0.name))\">\(HTMLText.escape($0.name)) <code>\($0.shortHash)</code></li>" }.joined()
            body += "</ul></details>"
        }
        body += "<details data-builtins\(opened == nil ? "" : " open")><summary>\(words["Start from a built-in policy"]) (\(builtIns.count))</summary><ul class=\"builtins\">"
        body += builtIns.map { "<li><a href=\"/policies?open=\(PagePaths.segment($0))#policy-source\">\(HTMLText.escape($0))</a></li>" }.joined() + "</ul></details>"
        if let opened {
            body += "<section data-builtin=\"\(HTMLText.escape(opened.name))\"><h4>\(HTMLText.escape(opened.name))</h4><pre>\(HTMLText.escape(opened.source))</pre></section>"
        }
        return PageShell(words: words, user: user, csrf: csrf, title: words["Policies"]).render(body)
    }

    /// The line number a failure names (`name.lua:12:`, `name.lua@1a2b3c:12)`, `line 12`), if it names one.
    static func line(of failure: String, policy: String) -> Int? {
        if let match = failure.firstMatch(of: /\.lua(?:@[0-9a-f]+)?:(\d+)/) { return Int(match.1) }
        if let match = failure.firstMatch(of: /line (\d+)/) { return Int(match.1) }
        return nil
    }
}
