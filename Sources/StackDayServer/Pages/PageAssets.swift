/// The pages' one stylesheet and one script (`Assets/app.css`, `Assets/app.js`, compiled into
/// the binary by the EmbedPolicies plugin), served at `/app.css` and `/app.js`.
///
/// The script only makes the pages smoother: forms post in the background and the list of today
/// follows writes made elsewhere (it polls `/today.html` with `If-None-Match` every 3 seconds).
/// Every action works without it, as a plain form POST answered with a redirect.
enum PageAssets {
    /// `Assets/app.css`, embedded at build time, and the habits' colours (`PagePalette`).
    static let stylesheet = (WebAssetSources.all["app.css"] ?? "") + PagePalette.css
    /// `Assets/app.js`, embedded at build time.
    static let script = WebAssetSources.all["app.js"] ?? ""
    /// `Assets/sw.js`: the service worker that keeps the shell and the last today page.
    static let serviceWorker = WebAssetSources.all["sw.js"] ?? ""
    /// `Assets/manifest.webmanifest` and `Assets/icon.svg`: what installs the app on a phone.
    static let manifest = WebAssetSources.all["manifest.webmanifest"] ?? ""
    static let icon = WebAssetSources.all["icon.svg"] ?? ""

    /// What both heads link: the manifest, the icon and the theme colour.
    static let headLinks: HTML = """
        <link rel="manifest" href="/manifest.webmanifest"><link rel="icon" href="/icon.svg" type="image/svg+xml"><meta name="theme-color" content="#1f6f43">
        """
}
