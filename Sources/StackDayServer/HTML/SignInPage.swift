/// The page a browser without a session gets: one field for the token `stackday user add` printed.
public struct SignInPage {
    /// Why the last attempt failed, if it did.
    public let error: String?

    public init(error: String? = nil) {
        self.error = error
    }

    public func render() -> String {
        let problem = error.map { "<p class=\"error\" id=\"error\">\(HTMLText.escape($0))</p>" } ?? ""
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>StackDay: sign in</title>
        <style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#1f2328}
        input{width:100%;font:inherit;padding:.4rem;margin:.4rem 0 1rem;box-sizing:border-box}button{font:inherit;padding:.3rem 1rem}
        .error{color:#cf222e}</style></head><body>
        <h1>StackDay</h1>\(problem)
        <form method="post" action="/session">
        <label for="token">Your token (from <code>stackday user add</code>)</label>
        <input id="token" name="token" type="password" autocomplete="off" required>
        <button id="sign-in" type="submit">Sign in</button>
        </form></body></html>
        """
    }
}
