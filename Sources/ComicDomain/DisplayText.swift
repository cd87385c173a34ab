/// `text` made safe for one line of a terminal or a status bar (`entry`, `watch` text and Waybar,
/// i3blocks/polybar, `doctor`'s lines): untrusted names and file contents can hold newlines that
/// forge lines and escape sequences that drive the terminal. docs/usage.md states the rule:
///
/// - line breaks and tabs (LF, CR, VT, FF, TAB, NEL U+0085, U+2028, U+2029) become a space;
/// - every other C0 or C1 control and DEL becomes U+FFFD `�`, visible;
/// - bidi embeddings, overrides and isolates (U+202A…U+202E, U+2066…U+2069) are dropped: they
///   would reorder the rest of the line.
///
/// JSON outputs keep the exact string (JSON escapes it); this is for text only.
package func displayLine(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x09...0x0D, 0x85, 0x2028, 0x2029: out.append(" ")
        case 0x00...0x1F, 0x7F...0x9F: out.append("\u{FFFD}")
        case 0x202A...0x202E, 0x2066...0x2069: continue
        default: out.append(scalar)
        }
    }
    return String(out)
}
