/// The page a browser without a session gets: a name and password (`stackday user passwd`), or
/// the token `stackday user add` printed.
struct SignInPage {
    let words: PageWords
    /// Why the last attempt failed, if it did.
    var error: String? = nil

    func render() -> String {
        let problem: HTML? = error.map { "<p class=\"error\" id=\"error\" role=\"alert\">\($0)</p>" }
        return PageShell.signedOut(words, title: words["Sign in"], """
        \(problem)
        <form method="post" action="/session" data-form="sign-in">
        <label for="name">\(words["Name"])</label>
        <input id="name" name="name" autocomplete="username" autocapitalize="none" spellcheck="false" maxlength="100">
        <label for="password">\(words["Password"])</label>
        <input id="password" name="password" type="password" autocomplete="current-password" maxlength="1024">
        <label for="token">\(words["Or your token"])</label>
        <p class="hint" id="token-hint">\(words["Paste the token `stackday user add` printed."])</p>
        <input id="token" name="token" type="password" aria-describedby="token-hint">
        <p><button class="primary" id="sign-in" type="submit">\(words["Sign in"])</button></p>
        </form>
        """)
    }
}
