package import ComicDomain
import JSON

/// What `dbmultiverse watch --format json --next` prints (docs/gnome-shell.md, docs/plasma.md): the entry's JSON object
/// plus `token`, which a widget hands back with `--after` to wait for the next change.
extension ChapterEntry {
    /// An opaque token that changes when anything `nextJSON` shows for `family` changes, except
    /// `date` (the date of an entry changes at every reload, while the card does not): 16 hex
    /// digits of FNV-1a (64 bits) over the entry's JSON without `date`. Two different entries
    /// share a token with a probability of 2⁻⁶⁴.
    package func token(family: WidgetFamily) -> String {
        Self.token(of: jsonFields(family: family))
    }

    /// The entry as `--format json` prints it, with `token` added as its last key.
    package func nextJSON(family: WidgetFamily) -> String {
        let fields = jsonFields(family: family) // the view is built once, for the object and its token
        return JSONValue.object(fields + [(key: "token", value: .string(Self.token(of: fields)))]).jsonText
    }

    /// The token of the `json` format's members `fields` (see `token(family:)`).
    private static func token(of fields: [(key: String, value: JSONValue)]) -> String {
        let shown = JSONValue.object(fields.filter { $0.key != "date" }).jsonText
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in shown.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Whether `text` has a token's form (what `token(family:)` makes): 16 lowercase hex digits.
    package static func isToken(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The `json` format's members for `family`: the keys of `EntryKeys.all`, in that order.
    private func jsonFields(family: WidgetFamily) -> [(key: String, value: JSONValue)] {
        var asked = self
        asked.family = family
        guard case .object(let fields) = asked.jsonObject else { return [] }
        return fields
    }
}
