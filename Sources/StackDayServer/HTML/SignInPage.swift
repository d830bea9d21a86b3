/// The page a browser without a session gets: one field for the token `stackday user add` printed.
struct SignInPage {
    let words: PageWords
    /// Why the last attempt failed, if it did.
    var error: String? = nil

    func render() -> String {
        let problem = error.map { "<p class=\"error\" id=\"error\" role=\"alert\">\(HTMLText.escape($0))</p>" } ?? ""
        return """
        <!DOCTYPE html>
        <html lang="\(words.language.rawValue)"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>StackDay: \(words["Sign in"])</title><link rel="stylesheet" href="/app.css"></head><body>
        <main><h1>StackDay</h1>\(problem)
        <form method="post" action="/session" data-form="sign-in">
        <label for="token">\(words["Your token"])</label>
        <p class="hint" id="token-hint">\(HTMLText.escape(words["Paste the token `stackday user add` printed."]))</p>
        <input id="token" name="token" type="password" autocomplete="current-password" required aria-describedby="token-hint">
        <p><button class="primary" id="sign-in" type="submit">\(words["Sign in"])</button></p>
        </form></main></body></html>
        """
    }
}
