package import ComicDomain
import JSON

/// The command-line tool's output formats (`--format`).
package enum EntryFormat: String, CaseIterable, Sendable {
    /// The widget rendering of the family.
    case text
    /// The entry as one JSON object with the D-Bus entry's keys (`EntryKeys`).
    case json
    /// Waybar's custom-module JSON (`text`, `tooltip`, `class`, `percentage`).
    case waybar
}

extension ChapterEntry {
    /// The entry as one line (no trailing newline) in `format` for `family`.
    ///
    /// - `text`: `rendered(family)` as one safe line (`displayLine`: no control characters, no
    ///   bidi overrides).
    /// - `json`: the keys of `EntryKeys.all`, in that order; `family` is the one asked for; the
    ///   name exactly as stored (JSON escapes it).
    /// - `waybar`: `text` = the view's `panel-text`, `tooltip` = medium rendering, both safe lines
    ///   escaped for Pango markup; `class` = `statusClass`; `percentage` = progress.
    package func formatted(_ format: EntryFormat, family: WidgetFamily) -> String {
        switch format {
        case .text:
            return displayLine(rendered(family))
        case .json:
            var asked = self
            asked.family = family
            return asked.jsonObject.jsonText
        case .waybar:
            return JSONValue.object([
                ("text", .string(escapedForMarkup(displayLine(view.panelText)))),
                ("tooltip", .string(escapedForMarkup(displayLine(rendered(.medium))))),
                ("class", .string(statusClass)),
                ("percentage", .integer(isPlaceholder ? 0 : progress)),
            ]).jsonText
        }
    }
}
