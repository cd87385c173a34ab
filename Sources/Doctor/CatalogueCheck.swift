package import ComicDomain

/// The reader's language's catalogue (`chapters-<lang>.json`) is there and recent: the service
/// counts new pages and the tray names chapters from it.
package struct CatalogueCheck: Sendable {
    package static let name = "catalogue"
    /// Older than this, the sync timer (or cron) has not fetched the chapter list for too long:
    /// the comic publishes pages several times a week.
    package static let staleAfterSeconds: Int64 = 8 * 86_400

    package enum Reading: Sendable, Equatable {
        /// The config file names a language the site does not have.
        case badLanguage(String)
        case catalogue(SiteLanguage, ReadResult<Catalogue>)
    }

    package let reading: Reading

    package init(_ reading: Reading) { self.reading = reading }

    /// The reader's language (the stored chapter's, else the config file's, else English) and its catalogue.
    package static func read(_ surroundings: Surroundings) -> Reading {
        let folder = DataFolder.resolve(environment: surroundings.environment)
        do {
            let language = try surroundings.config.readerLanguage(chosen: folder.readChapterData().value?.siteLanguage)
            return .catalogue(language, folder.readCatalogue(language))
        } catch {
            return .badLanguage(error.message)
        }
    }

    package func result(_ surroundings: Surroundings) -> CheckResult {
        switch reading {
        case .badLanguage(let message):
            return CheckResult(Self.name, .missing, message, fix: "correct the language = line of \(shellWord(surroundings.configPath))")
        case .catalogue(let language, .missing):
            return CheckResult(Self.name, .missing, "none for \(language.code) yet", fix: "dbmultiverse sync\(Self.option(language))")
        case .catalogue(let language, .invalid(let reason)):
            return CheckResult(Self.name, .missing, "\(Catalogue.fileName(for: language)) is unusable: \(reason)",
                               fix: "dbmultiverse sync --force\(Self.option(language))")
        case .catalogue(let language, .valid(let catalogue)):
            let age = surroundings.now - catalogue.fetch.fetchedAt
            let chapters = catalogue.chapters.count == 1 ? "1 chapter" : "\(catalogue.chapters.count) chapters"
            let detail = "\(language.code): \(chapters), latest page \(catalogue.latestPage), "
                + "fetched \(surroundings.relative(catalogue.fetch.fetchedAt))"
            guard age <= Self.staleAfterSeconds else {
                return CheckResult(Self.name, .missing, detail + " (older than \(Self.staleAfterSeconds / 86_400) days)",
                                   fix: "dbmultiverse sync\(Self.option(language))")
            }
            return CheckResult(Self.name, .ok, detail)
        }
    }

    private static func option(_ language: SiteLanguage) -> String { language == .english ? "" : " --language \(language.code)" }
}
