import CIntl
import Glibc

extension Localization {
    /// The languages the session reads messages in, as gettext chooses them, best first (POSIX
    /// locale names: `fr_FR.UTF-8`, `pt_BR`, `de`); empty for English. One rule, for the
    /// interface's texts and the comic's language (docs/translations.md): the messages locale is
    /// the first of LC_ALL, LC_MESSAGES and LANG that is set, or C; when it is C — as written, as
    /// POSIX, or because the system does not have that locale — messages are English and LANGUAGE
    /// is ignored; otherwise LANGUAGE's colon-separated list when it is set (up to a C or POSIX
    /// entry, where gettext stops), else the locale itself.
    package static func sessionLanguages(environment: [String: String]) -> [String] {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        guard isAvailable(locale) else { return [] }
        guard let list = environment["LANGUAGE"], !list.isEmpty else { return [locale] }
        return Array(list.split(separator: ":").map(String.init).prefix { $0 != "C" && $0 != "POSIX" })
    }

    /// Whether `locale` is a messages locale of this system other than C (C.UTF-8 is one: gettext
    /// tells C by its name alone).
    static func isAvailable(_ locale: String) -> Bool {
        guard locale != "C", locale != "POSIX", let handle = newlocale(LC_MESSAGES_MASK, locale, nil) else { return false }
        freelocale(handle)
        return true
    }
}
