import StackDay
import StackDayApplication

/// `/policies`: every policy the user can name, where each comes from (installed, folder,
/// published, shared by another user, built-in) with its hash and a way to try it on one of the
/// user's habits (`table[data-policies]`); the user's own installed and offered scripts in full;
/// and the editor, which runs the install pipeline and shows each failure beside the line of the
/// source it names.
struct PoliciesPage {
    let list: PolicyListView
    /// Every script the user's store holds (for the built-ins' versions the habits run).
    let stored: [PolicyScript]
    /// The user's habits, to try a policy on.
    let habits: [String]
    /// The policy opened as a starting point, if one was.
    let opened: ResolvedPolicy?
    /// What the editor holds: the last name and source sent, or the opened policy's.
    let name: String
    let source: String
    /// The failures of the last install, and the script just installed.
    let refusal: PolicyRefusal?
    let justInstalled: String?
    /// `NAME with USER` just shared, if a share was made.
    var justShared: String? = nil
    let words: PageWords
    let csrf: String
    /// Whether the page offers the language form (`PageShell.offersLanguage`).
    var offersLanguage = true

    func render(user: String) -> String {
        var body: HTML = "<h2>\(words["Policies"])</h2>"
        if let justInstalled { body += "<p role=\"status\" id=\"installed\">\(words["Installed"]): \(justInstalled)</p>" }
        if let justShared { body += "<p role=\"status\" id=\"shared\">\(words["Shared"]): \(justShared)</p>" }
        body += listing()
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
        // The user's own scripts and those offered to them in full; the built-ins' versions the
        // habits are pinned to (stored with them, under built-in names) by name and hash only, folded away.
        let own = list.entries.filter { [.installed, .published, .shared].contains($0.policy.source) }
        body += "<h3>\(words["Installed policies"])</h3>"
        if own.isEmpty { body += "<p>\(words["Nothing installed yet."])</p>" }
        for entry in own {
            let script = entry.policy.script
            body += "<section class=\"script\" data-policy=\"\(script.name)\" data-source=\"\(entry.policy.source.rawValue)\"><h4>\(script.name) <code>\(script.shortHash)</code> <small>\(sourceText(entry.policy))</small></h4>"
                + "<pre>\(script.source)</pre>"
            if entry.policy.source == .installed {
                // Shared with another user of this server: they see it as shared by this one.
                let id = "share-\(script.name)"
                body += "<form method=\"post\" action=\"/policies/\(PagePaths.segment(script.name))/share\" data-form=\"share-policy\">\(PageShell.csrf(csrf))"
                    + "<label for=\"\(id)\">\(words["Share with"])</label><input id=\"\(id)\" name=\"\(ShareRequest.with.key)\" required maxlength=\"100\" autocomplete=\"off\"> "
                    + "<button type=\"submit\">\(words["Share"])</button></form>"
            }
            body += "</section>"
        }
        let builtIns = list.entries.filter { $0.policy.source == .builtIn }.map(\.policy.name)
        let pinned = stored.filter { !$0.installed && builtIns.contains($0.name) }
        if !pinned.isEmpty {
            body += "<details data-pinned-builtins><summary>\(words["Built-in versions your habits run"]) (\(pinned.count))</summary><ul class=\"pinned\">"
            body += pinned.map { "<li data-policy=\"\($0.name)\">\($0.name) <code>\($0.shortHash)</code></li>" as HTML }.joined()
            body += "</ul></details>"
        }
        let open: HTML = opened == nil ? "" : " open"
        body += "<details data-builtins\(open)><summary>\(words["Start from a built-in policy"]) (\(builtIns.count))</summary><ul class=\"builtins\">"
        body += builtIns.map { "<li><a href=\"/policies?open=\(PagePaths.segment($0))#policy-source\">\($0)</a></li>" as HTML }.joined() + "</ul></details>"
        if let opened {
            body += "<section data-builtin=\"\(opened.name)\"><h4>\(opened.name)</h4><pre>\(opened.script.source)</pre></section>"
        }
        return PageShell(words: words, user: user, csrf: csrf, title: words["Policies"], offersLanguage: offersLanguage).render(body)
    }

    /// Where a policy comes from, in the page's language.
    private func sourceText(_ policy: ResolvedPolicy) -> HTML {
        if let by = policy.sharedBy { return "\(words["shared by {name}"].replacingOccurrences(of: "{name}", with: by))" }
        return "\(words[policy.source.rawValue])"
    }

    /// Every policy the user can name: a row each, with where it comes from, its hash, its roles,
    /// and a form that opens a habit's rule lab with it chosen.
    private func listing() -> HTML {
        var rows: HTML = ""
        for entry in list.entries {
            let policy = entry.policy
            let roles = entry.roles.map { words[$0.rawValue] }.joined(separator: ", ")
            let state: HTML = entry.inUse ? "" : " data-shadowed"
            var tryIt: HTML = ""
            if entry.inUse, !habits.isEmpty, entry.error == nil {
                let options = habits.map { "<option>\($0)</option>" as HTML }.joined()
                let id = "try-\(policy.name)"
                tryIt = "<form method=\"get\" action=\"/policies/try\" data-action=\"try-policy\"><input type=\"hidden\" name=\"policy\" value=\"\(policy.name)\">"
                    + "<select id=\"\(id)\" name=\"habit\" aria-label=\"\(words["Habit"])\">\(options)</select> "
                    + "<button type=\"submit\">\(words["Try on my history"])</button></form>"
            }
            let description: HTML = entry.error.map { "<span class=\"error\">\($0)</span>" as HTML } ?? words.prose(entry.listing?.description ?? "")
            rows += "<tr data-policy=\"\(policy.name)\" data-source=\"\(policy.source.rawValue)\"\(state)><th scope=\"row\">\(policy.name)</th>"
                + "<td>\(sourceText(policy))</td><td><code>\(policy.script.shortHash)</code></td><td>\(roles)</td><td>\(description)</td><td>\(tryIt)</td></tr>"
        }
        return "<div class=\"scroll\"><table data-policies><caption>\(words["Policies you can use"])</caption><thead><tr><th scope=\"col\">\(words["Name"])</th>"
            + "<th scope=\"col\">\(words["Source"])</th><th scope=\"col\">sha256</th><th scope=\"col\">\(words["Roles"])</th><th scope=\"col\">\(words["Description"])</th>"
            + "<th scope=\"col\"><span class=\"sr\">\(words["Try on my history"])</span></th></tr></thead><tbody>\(rows)</tbody></table></div>"
    }

    /// The line number a failure names (`name.lua:12:`, `name.lua@1a2b3c:12)`, `line 12`), if it names one.
    static func line(of failure: String, policy: String) -> Int? {
        if let match = failure.firstMatch(of: /\.lua(?:@[0-9a-f]+)?:(\d+)/) { return Int(match.1) }
        if let match = failure.firstMatch(of: /line (\d+)/) { return Int(match.1) }
        return nil
    }
}
