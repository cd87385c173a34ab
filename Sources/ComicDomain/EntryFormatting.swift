internal import JSON

/// The command-line tool's output formats (`--format`).
public enum EntryFormat: String, CaseIterable, Sendable {
    /// The widget rendering of the family.
    case text
    /// The entry as one JSON object with the D-Bus entry's keys.
    case json
    /// Waybar's custom-module JSON (`text`, `tooltip`, `class`, `percentage`).
    case waybar
}

extension ChapterEntry {
    /// The entry as one line (no trailing newline) in `format` for `family`.
    ///
    /// - `text`: `rendered(family)`.
    /// - `json`: `chapter`, `name`, `progress`, `image-path`, `deep-link`, `date`, `family`,
    ///   `is-placeholder`, `universe`, `latest-page`, `new-pages`, `next-chapter`,
    ///   `first-unread-page`, in that order; `family` is the one asked for.
    /// - `waybar`: `text` = small rendering, `tooltip` = medium rendering, both escaped for
    ///   Pango markup; `class` = `statusClass`; `percentage` = progress.
    public func formatted(_ format: EntryFormat, family: WidgetFamily) -> String {
        switch format {
        case .text:
            return rendered(family)
        case .json:
            return jsonObject(family: family).jsonText
        case .waybar:
            return JSONValue.object([
                ("text", .string(escapedForMarkup(rendered(.small)))),
                ("tooltip", .string(escapedForMarkup(rendered(.medium)))),
                ("class", .string(statusClass)),
                ("percentage", .integer(isPlaceholder ? 0 : progress)),
            ]).jsonText
        }
    }

    /// The `json` format's object: the entry's keys, in order, with `family` the one asked for.
    func jsonObject(family: WidgetFamily) -> JSONValue {
        JSONValue.object(jsonFields(family: family))
    }

    func jsonFields(family: WidgetFamily) -> [(key: String, value: JSONValue)] {
        [
            ("chapter", .integer(chapter)),
            ("name", .string(name)),
            ("progress", .integer(progress)),
            ("image-path", .string(imagePath)),
            ("deep-link", .string(deepLink)),
            ("date", .integer(date)),
            ("family", .string(family.rawValue)),
            ("is-placeholder", .bool(isPlaceholder)),
            ("universe", .integer(universe)),
            ("latest-page", .integer(latestPage)),
            ("new-pages", .integer(newPages)),
            ("next-chapter", .integer(nextChapter)),
            ("first-unread-page", .integer(firstUnreadPage)),
        ]
    }

    /// `placeholder`, `new` (new pages published after the reader's), `finished` (progress 100)
    /// or `reading`: a CSS class for status bars.
    public var statusClass: String {
        if isPlaceholder { return "placeholder" }
        if newPages > 0 { return "new" }
        return progress >= 100 ? "finished" : "reading"
    }
}

/// `text` with `&`, `<` and `>` escaped for Pango / notification body markup.
public func escapedForMarkup(_ text: String) -> String {
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
