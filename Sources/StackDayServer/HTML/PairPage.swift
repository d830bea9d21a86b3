/// The page a pairing code's QR code opens (`/pair?code=…`): the code, a name for this browser,
/// and a button that signs it in as the code's user. No session is needed; the code is the
/// credential, used once.
struct PairPage {
    let words: PageWords
    /// The code as the link carried it (shown for the person to compare with the other screen).
    var code: String = ""
    /// Why the last attempt failed, if it did.
    var error: String? = nil

    func render() -> String {
        let problem: HTML? = error.map { "<p class=\"error\" id=\"error\" role=\"alert\">\($0)</p>" }
        return PageShell.signedOut(words, title: words["Connect a device"], """
        <h2>\(words["Connect a device"])</h2>\(problem)
        <form method="post" action="/pair" data-form="pair">
        <label for="code">\(words["Pairing code"])</label>
        <input id="code" name="code" value="\(code)" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="16" required>
        <label for="device-name">\(words["This device's name"])</label>
        <input id="device-name" name="name" value="\(words["phone"])" maxlength="64" required>
        <p><button class="primary" id="pair" type="submit">\(words["Connect"])</button></p>
        </form>
        """)
    }
}
