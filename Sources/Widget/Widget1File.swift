import ComicDomain
import DBus

extension Widget1 {
    /// `dbus/com.nobadi.DBMultiverse.Widget1.xml`, which `make install` puts in
    /// `share/dbus-1/interfaces`: the interface as the service introspects it, after a comment on
    /// what introspection cannot say — where it is served, the errors the methods fail with (those
    /// `ComicErrorKind` travels as) and the keys of the entry (`EntryKeys`, with their docs).
    /// Written by `make interface` (BuildTools/widget-interface prints it).
    package static var interfaceFile: String {
        interfaceFile(members: members, comment: fileComment)
    }

    static var fileComment: String {
        let errors = ComicErrorKind.allCases.map { ComicError($0, "").dbusError.name }
            .filter { $0.hasPrefix(WidgetBus.errorPrefix) }
            .map { $0.dropFirst(WidgetBus.errorPrefix.count) }
        func described(_ keys: [EntryKey]) -> String {
            keys.map { "\($0.name) (\($0.signature.rawValue): \($0.doc))" }.joined(separator: ", ")
        }
        let paragraphs = [
            "\(name): the DBMultiverse widget on the session bus, served at \(WidgetBus.objectPath) by the "
                + "well-known name \(WidgetBus.busName).",
            "Written from its Swift declaration (Sources/Widget/Widget1.swift) by `make interface`: edit that, "
                + "not this file. A test checks that the running service's Introspect agrees with it.",
            "Errors: \(WidgetBus.errorPrefix){\(errors.joined(separator: ", "))}; the standard "
                + "org.freedesktop.DBus.Error.* names otherwise (InvalidArgs for a wrong signature or option).",
            "The entry (a{sv}): \(described(EntryKeys.fields)); and the view every face draws, decided by the "
                + "service once, its texts in the service's language (the session's): \(described(EntryKeys.view)).",
        ]
        return paragraphs.map { wrapped($0, width: 95) }.joined(separator: "\n")
    }

    /// `text` in lines of at most `width` characters, broken at spaces (a longer word stands alone).
    private static func wrapped(_ text: String, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}
