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

extension EntryView {
    /// The published view as one line (no trailing newline) in `format` for `family`: its keys as
    /// they are, nothing computed here.
    ///
    /// - `text`: the view's `panel-text` (small) or `tooltip` (medium) as one safe line
    ///   (`displayLine`: no control characters, no bidi overrides).
    /// - `json`: the keys of `EntryKeys.all`, in that order; `family` is the one asked for; the
    ///   name exactly as stored (JSON escapes it).
    /// - `waybar`: `text` = `panel-text`, `tooltip` = `tooltip`, both safe lines escaped for Pango
    ///   markup; `class` = `state`; `percentage` = the entry's progress.
    package func formatted(_ format: EntryFormat, family: WidgetFamily) -> String {
        switch format {
        case .text:
            return displayLine(family == .small ? panelText : tooltip)
        case .json:
            return asked(family).jsonObject.jsonText
        case .waybar:
            return JSONValue.object([
                ("text", .string(escapedForMarkup(displayLine(panelText)))),
                ("tooltip", .string(escapedForMarkup(displayLine(tooltip)))),
                ("class", .string(state.rawValue)),
                ("percentage", .integer(entry.progress)),
            ]).jsonText
        }
    }

    /// What `dbmultiverse watch --format json --next` prints (docs/usage.md): the `json` format's
    /// object plus `token`, the revision in hex, which a widget hands back with `--after` to wait
    /// for the next change.
    package func nextJSON(family: WidgetFamily) -> String {
        guard case .object(let fields) = asked(family).jsonObject else { return "" }
        return JSONValue.object(fields + [(key: "token", value: .string(token))]).jsonText
    }

    /// This view with the entry's `family` the one asked for.
    private func asked(_ family: WidgetFamily) -> EntryView {
        var asked = self
        asked.entry.family = family
        return asked
    }
}
