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
        var body: HTML = "<h2>\(words["Policies"])</h2>"
        if let justInstalled { body += "<p role=\"status\" id=\"installed\">\(words["Installed"]): \(justInstalled)</p>" }
        body += "<h3>\(words["Policy editor"])</h3>"
        if let refusal {
            body += "<div role=\"alert\" id=\"failures\"><p class=\"error\">\(words["The checks refused the script:"])</p><ul class=\"failures\">"
            for failure in refusal.failures {
                let line: HTML? = Self.line(of: failure, policy: refusal.policy).map { " data-line=\"\($0)\"" }
                body += "<li\(line)>\(failure)</li>"
            }
            body += "</ul></div>"
        }
        body += "<form method=\"post\" action=\"/policies\" data-form=\"policy-editor\">\(PageShell.csrf(csrf))"
            + "<label for=\"policy-name\">\(words["Name"])</label><input id=\"policy-name\" name=\"name\" required maxlength=\"64\" pattern=\"[A-Za-z0-9_\\-]{1,64}\" value=\"\(name)\">"
            + "<label for=\"policy-source\">\(words["Source"])</label><textarea id=\"policy-source\" name=\"source\" rows=\"16\" spellcheck=\"false\" style=\"width:100%;font-family:ui-monospace,monospace\">\(source)</textarea>"
            + "<p><button class=\"primary\" type=\"submit\">\(words["Install"])</button></p></form>"
        if let refusal {
            // The source with its lines numbered, the failing ones marked.
            let failing = Set(refusal.failures.compactMap { Self.line(of: $0, policy: refusal.policy) })
            body += "<ol class=\"source\">" + source.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { index, text -> HTML in
                let number = index + 1
                let marked: HTML = failing.contains(number) ? " data-failed-line=\"\(number)\" class=\"error\"" : ""
                return "<li id=\"line-\(number)\"\(marked)><code>\(String(text))</code></li>"
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
            body += "<section class=\"script\" data-policy=\"\(script.name)\"><h4>\(script.name) <code>\(script.shortHash)</code></h4>"
                + "<pre>\(script.source)</pre></section>"
        }
        if !pinned.isEmpty {
            body += "<details data-pinned-builtins><summary>\(words["Built-in versions your habits run"]) (\(pinned.count))</summary><ul class=\"pinned\">"
            body += pinned.map { "<li data-policy=\"\($0.name)\">\($0.name) <code>\($0.shortHash)</code></li>" as HTML }.joined()
            body += "</ul></details>"
        }
        let open: HTML = opened == nil ? "" : " open"
        body += "<details data-builtins\(open)><summary>\(words["Start from a built-in policy"]) (\(builtIns.count))</summary><ul class=\"builtins\">"
        body += builtIns.map { "<li><a href=\"/policies?open=\(PagePaths.segment($0))#policy-source\">\($0)</a></li>" as HTML }.joined() + "</ul></details>"
        if let opened {
            body += "<section data-builtin=\"\(opened.name)\"><h4>\(opened.name)</h4><pre>\(opened.source)</pre></section>"
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
