import CIntl
import Glibc

/// The program's texts in the reader's language: gettext, text domain `dbmultiverse`, catalogues
/// under `share/locale/<ll>/LC_MESSAGES/` (docs/translations.md).
///
/// The message functions take `StaticString`s, so a message is always one literal that `xgettext`
/// finds (`make pot`), never a string built at run time; values go in through `%d` and `%s` (or
/// `%1$d`, `%2$s` when a translation reorders them), never by interpolation or by joining pieces.
/// Before `start` (and in the "C" locale) every function returns the English message, formatted.
package enum Localization {
    /// The text domain: the catalogues' file name, `dbmultiverse.mo`.
    package static let domain = "dbmultiverse"
    /// Overrides where the catalogues are found (the tests, an uninstalled build).
    static let localeDirectoryVariable = "DBMULTIVERSE_LOCALE_DIR"

    /// Takes the session's language for messages (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext
    /// reads them: `sessionLanguages`) and binds the text domain to the catalogues installed in
    /// the binary's prefix. Call once, at the start of the process, before any other thread runs.
    ///
    /// Only the message and character-type categories are taken: numbers and dates stay in the C
    /// locale, so what the program writes for scripts and the site never depends on the session.
    ///
    /// A catalogue gettext would read for the session's languages is checked first
    /// (`MessageCatalogue`): glibc trusts it whole, and a truncated or damaged one crashes the
    /// program at its first message. When one fails, no catalogue is read (English) and the
    /// returned line, for the log, names it and says why.
    @discardableResult
    package static func start(environment: [String: String]) -> String? {
        _ = setlocale(LC_CTYPE, "")
        _ = setlocale(LC_MESSAGES, "")
        if let directory = localeDirectory(environment: environment) {
            _ = bindtextdomain(domain, directory)
        }
        _ = bind_textdomain_codeset(domain, "UTF-8")
        let languages = sessionLanguages(environment: environment)
        // The folder bound, or gettext's default when none is.
        guard !languages.isEmpty, let bound = bindtextdomain(domain, nil) else { return nil }
        let candidates = MessageCatalogue.candidates(directory: String(cString: bound), domain: domain, languages: languages,
                                                     aliases: MessageCatalogue.aliases())
        for path in candidates {
            guard let problem = MessageCatalogue.problem(path: path) else { continue }
            // A folder that can hold no catalogue: gettext then finds none, and every message is English.
            _ = bindtextdomain(domain, "/dev/null")
            return "not reading the catalogue \(path) (\(problem)): messages in English"
        }
        return nil
    }

    /// `$DBMULTIVERSE_LOCALE_DIR` when set, else the `share/locale` folder of the prefix the running
    /// binary is installed in, when that folder exists; nil leaves gettext's own default.
    static func localeDirectory(environment: [String: String]) -> String? {
        if let directory = environment[localeDirectoryVariable], directory.hasPrefix("/") { return directory }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0, let directory = installedLocaleDirectory(
            executable: String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)) else { return nil }
        var status = stat()
        guard stat(directory, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return nil }
        return directory
    }

    /// `<prefix>/share/locale` for an executable installed as `<prefix>/bin/NAME` (the command
    /// line) or `<prefix>/libexec/dbmultiverse/NAME` (the service, the notifier, the browser host:
    /// `make install` prefixes and the package's `/usr`); for any other folder, its parent's
    /// `share/locale` (nil for a path without a folder).
    static func installedLocaleDirectory(executable: String) -> String? {
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        var folder = executable[..<slash]
        let libexec = "/libexec/dbmultiverse"
        if folder.hasSuffix(libexec) {
            folder = folder.dropLast(libexec.count)
        } else {
            folder = folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)]
        }
        return folder + "/share/locale"
    }
}

/// `message` in the session's language, with `%d` / `%s` replaced by `arguments` in order.
package func gettext(_ message: StaticString, _ arguments: any MessageArgument...) -> String {
    format(translated(message.description), arguments)
}

// gettext returns its own argument when it has no translation: the C string handed to it must stay
// valid until the result is copied, so each call copies inside `withCString` (a Swift String's
// temporary C string ends with the call that received it).

/// The singular or plural form of the message for `count` in the session's language (Polish has
/// three forms, Japanese one: never choose with `count == 1`), formatted with `arguments`, or with
/// `count` alone when there are none.
package func ngettext(_ singular: StaticString, _ plural: StaticString, _ count: Int, _ arguments: any MessageArgument...) -> String {
    let text = singular.description.withCString { singular in
        plural.description.withCString { plural in
            String(cString: dngettext(Localization.domain, singular, plural, UInt(clamping: max(count, 0))))
        }
    }
    return format(text, arguments.isEmpty ? [count] : arguments)
}

/// `message` in `context` (the same English words meaning different things, e.g. a button and a
/// title), formatted with `arguments`.
package func pgettext(_ context: StaticString, _ message: StaticString, _ arguments: any MessageArgument...) -> String {
    // What gettext.h's pgettext macro does: the context and the message joined by EOT; a message
    // without a translation comes back unchanged, context included.
    let key = context.description + "\u{4}" + message.description
    let text = translated(key)
    return format(text == key ? message.description : text, arguments)
}

private func translated(_ message: String) -> String {
    message.withCString { String(cString: dgettext(Localization.domain, $0)) }
}

/// A value a message's `%d` or `%s` stands for.
package protocol MessageArgument {
    /// The value as written into the message.
    var messageText: String { get }
}

extension Int: MessageArgument {
    package var messageText: String { String(self) }
}

extension Int32: MessageArgument {
    package var messageText: String { String(self) }
}

extension String: MessageArgument {
    package var messageText: String { self }
}

extension Substring: MessageArgument {
    package var messageText: String { String(self) }
}

/// `template` with each `%d` / `%s` replaced by the next argument, each `%N$d` / `%N$s` by the Nth,
/// and `%%` by `%`. The values are inserted as they are, never read as formats themselves (a
/// chapter named `100%` stays so); a directive without an argument is left out.
func format(_ template: String, _ arguments: [any MessageArgument]) -> String {
    // Scanned as UTF-8: every byte of a directive is ASCII, and no other character's encoding
    // holds an ASCII byte, so the text between directives is copied as it is.
    let percent = UInt8(ascii: "%")
    guard template.utf8.contains(percent) else { return template }
    let bytes = Array(template.utf8)
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count)
    var next = 0
    var i = 0
    while i < bytes.count {
        guard bytes[i] == percent else {
            result.append(bytes[i])
            i += 1
            continue
        }
        var conversionAt = i + 1
        if conversionAt < bytes.count, bytes[conversionAt] == percent {
            result.append(percent)
            i = conversionAt + 1
            continue
        }
        var position: Int?
        let digitsEnd = bytes[conversionAt...].firstIndex { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? bytes.count
        if digitsEnd > conversionAt, digitsEnd < bytes.count, bytes[digitsEnd] == UInt8(ascii: "$"),
           let number = Int(String(decoding: bytes[conversionAt..<digitsEnd], as: UTF8.self)), number > 0 {
            position = number - 1
            conversionAt = digitsEnd + 1
        }
        guard conversionAt < bytes.count, bytes[conversionAt] == UInt8(ascii: "d") || bytes[conversionAt] == UInt8(ascii: "s") else {
            result.append(percent) // not a directive of ours: kept as written
            i += 1
            continue
        }
        let index = position ?? next
        if position == nil { next += 1 }
        if index < arguments.count { result.append(contentsOf: arguments[index].messageText.utf8) }
        i = conversionAt + 1
    }
    return String(decoding: result, as: UTF8.self)
}
