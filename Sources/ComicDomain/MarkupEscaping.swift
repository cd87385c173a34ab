/// `text` with `&`, `<` and `>` escaped for Pango / notification body markup.
package func escapedForMarkup(_ text: String) -> String {
    // Scalar by scalar: a combining mark after `&` must not hide it inside one Character.
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out.append(contentsOf: "&amp;".unicodeScalars)
        case "<": out.append(contentsOf: "&lt;".unicodeScalars)
        case ">": out.append(contentsOf: "&gt;".unicodeScalars)
        default: out.append(scalar)
        }
    }
    return String(out)
}
