/// The reader's language: the one rule every program follows (docs/usage.md) for the catalogue
/// the widget counts pages in, the tray's chapter names, the pages the opener shows, and the site
/// commands: the language chosen (the stored chapter's, or `--language`), else the config file's
/// `language =`, else the desktop session's (`SiteLanguage.desktop(environment:)`), else English.
extension ConfigFile {
    /// - Throws: `invalidLanguage` when nothing is chosen and the file names a language the site
    ///   does not have.
    package func readerLanguage(chosen: SiteLanguage?) throws(ComicError) -> SiteLanguage {
        if let chosen { return chosen }
        return try language()
    }

    /// `readerLanguage(chosen:)` for the long-running processes, which go on with English when the
    /// file names a language the site does not have, and log `problem`.
    package func readerLanguageOrEnglish(chosen: SiteLanguage?) -> (language: SiteLanguage, problem: ComicError?) {
        do {
            return (try readerLanguage(chosen: chosen), nil)
        } catch {
            return (.english, error)
        }
    }
}

extension ChapterData {
    /// The stored language when the site has it (a chapter stored by `UpdateChapter` may name any
    /// well-formed code), for `ConfigFile.readerLanguage(chosen:)`.
    package var siteLanguage: SiteLanguage? { language.flatMap(SiteLanguage.init(code:)) }
}
