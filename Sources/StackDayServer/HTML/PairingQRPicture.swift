import CQRencode

/// A QR code of a short text (the pairing link), drawn by libqrencode (opened on demand: see
/// `CQRencode`) at error correction level M in the smallest version that holds the text, and
/// written here as SVG.
struct PairingQRPicture {
    /// The modules, row by row: true for dark.
    let modules: [[Bool]]
    var size: Int { modules.count }
    /// The version (1 to 40): 17 modules a side, and 4 more each version.
    var version: Int { (size - 17) / 4 }

    /// Nil when libqrencode is missing or the text does not fit (the page then shows the link
    /// and the code without the picture).
    init?(_ text: String) {
        var failure: UnsafePointer<CChar>?
        guard let drawn = sd_qr_encode(text, &failure) else { return nil }
        defer { sd_qr_free(drawn) }
        let width = Int(drawn.pointee.width)
        let cells = UnsafeBufferPointer(start: drawn.pointee.modules, count: width * width)
        modules = (0..<width).map { row in (0..<width).map { cells[row * width + $0] == 1 } }
    }

    /// The modules as SVG: one path of unit squares in a viewBox with a four-module quiet zone,
    /// scaled by the page; `label` is its accessible name.
    func svg(label: String) -> String {
        let quiet = 4
        var path = ""
        for (y, row) in modules.enumerated() {
            var x = 0
            while x < row.count {
                guard row[x] else { x += 1; continue }
                var run = 1
                while x + run < row.count && row[x + run] { run += 1 }
                path += "M\(x + quiet) \(y + quiet)h\(run)v1h-\(run)z"
                x += run
            }
        }
        let side = size + 2 * quiet
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\" role=\"img\" aria-label=\"\(HTMLText.escape(label))\" "
            + "class=\"qr\" shape-rendering=\"crispEdges\"><rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"
            + "<path fill=\"#000\" d=\"\(path)\"/></svg>"
    }
}
