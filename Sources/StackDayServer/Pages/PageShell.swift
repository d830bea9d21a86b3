/// The frame of every signed-in page: `<html lang>`, the stylesheet and script, the header with
/// the user's name and the sign-out form, a place for notices, and the language setting.
struct PageShell {
    let words: PageWords
    let user: String
    let csrf: String
    let title: String
    /// Whether the footer offers the language form: only to a browser that may change the
    /// account's settings (`Page.offersLanguage`), never a form that would be refused.
    var offersLanguage = true

    /// A page for a browser without a session (signing in, connecting a device): the document's
    /// head in the words' language, `title` after the app's name, and `main` around `body`.
    static func signedOut(_ words: PageWords, title: String, _ body: HTML) -> String {
        let page: HTML = """
        <!DOCTYPE html>
        <html lang="\(words.language.rawValue)"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>StackDay: \(title)</title><link rel="stylesheet" href="/app.css">\(PageAssets.headLinks)</head><body>
        <main><h1>StackDay</h1>\(body)</main></body></html>
        """
        return page.markup
    }

    /// The hidden field every state-changing form carries.
    static func csrf(_ token: String) -> HTML { "<input type=\"hidden\" name=\"csrf\" value=\"\(token)\">" }

    func render(_ body: HTML, notice: String? = nil) -> String {
        let alert: HTML? = notice.map { "<p class=\"error\" role=\"alert\">\($0)</p>" }
        let languages = [("en", "English"), ("ko", "한국어")].map { code, name -> HTML in
            "<option value=\"\(code)\"\(words.language.rawValue == code ? " selected" as HTML : "")>\(name)</option>"
        }.joined()
        let footer: HTML = offersLanguage ? """
            <footer><form method="post" action="/settings" data-action="language">\(Self.csrf(csrf))<label for="language">\(words["Language"])</label>
            <select id="language" name="language">\(languages)</select> <button type="submit">\(words["Save"])</button></form></footer>
            """ : ""
        let page: HTML = """
        <!DOCTYPE html>
        <html lang="\(words.language.rawValue)"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title) · StackDay</title><link rel="stylesheet" href="/app.css"><script src="/app.js" defer></script>\(PageAssets.headLinks)</head>
        <body><header class="top"><h1><a href="/">StackDay</a></h1><nav><a href="/policies">\(words["Policies"])</a> <a href="/settings">\(words["Settings"])</a></nav>
        <form method="post" action="/session/end" data-action="sign-out">\(Self.csrf(csrf))<span class="hint">\(words["Signed in as"]) <strong id="user">\(user)</strong></span> <button type="submit">\(words["Sign out"])</button></form>
        </header>
        <main><div id="notice" aria-live="polite">\(alert)</div><p id="queue-state" class="hint" role="status" data-waiting="0" data-words="\(words["offline · {n} waiting"])" data-card-words="\(words["waiting · tap to take back"])" data-refused="\(words["Not kept: {what} ({habit})."])"></p>
        \(body)
        </main>
        \(footer)
        </body></html>
        """
        return page.markup
    }
}
