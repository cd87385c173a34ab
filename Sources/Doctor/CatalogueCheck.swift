import ComicDomain
import Localization

/// The reader's language's catalogue (`chapters-<lang>.json`) is there and recent: the service
/// counts new pages and the tray names chapters from it.
struct CatalogueCheck: Sendable {
    static let name = "catalogue"
    /// Older than this, the sync timer (or cron) has not fetched the chapter list for too long:
    /// the comic publishes pages several times a week.
    static let staleAfterSeconds: Int64 = 8 * 86_400

    enum Reading: Sendable, Equatable {
        /// The config file names a language the site does not have.
        case badLanguage(String)
        /// No data folder to read it from (the data folder's line says why).
        case noDataFolder
        case catalogue(SiteLanguage, ReadResult<Catalogue>)
    }

    let reading: Reading

    init(_ reading: Reading) { self.reading = reading }

    /// The reader's language (the stored chapter's, else the config file's, else English) and its catalogue.
    static func read(_ surroundings: Surroundings) -> Reading {
        guard let folder = try? DataFolder.resolve(environment: surroundings.environment) else { return .noDataFolder }
        do {
            let language = try surroundings.config.readerLanguage(chosen: folder.readChapterData().value?.siteLanguage)
            return .catalogue(language, folder.readCatalogue(language))
        } catch {
            return .badLanguage(error.message)
        }
    }

    func result(_ surroundings: Surroundings) -> CheckResult {
        switch reading {
        case .noDataFolder:
            return CheckResult(Self.name, .missing, gettext("cannot be read without a data folder (see the data folder line)"))
        case .badLanguage(let message):
            return CheckResult(Self.name, .missing, message, fix: gettext("correct the language = line of %s", shellWord(surroundings.configPath)))
        case .catalogue(let language, .missing):
            // TRANSLATORS: doctor: no catalogue (list of chapters) yet for the language code %s.
            return CheckResult(Self.name, .missing, gettext("none for %s yet", language.code), fix: "dbmultiverse sync\(Self.option(language))")
        case .catalogue(let language, .invalid(let reason)):
            return CheckResult(Self.name, .missing, gettext("%s is unusable: %s", Catalogue.fileName(for: language), reason),
                               fix: "dbmultiverse sync --force\(Self.option(language))")
        case .catalogue(let language, .valid(let catalogue)):
            let age = surroundings.now - catalogue.fetch.fetchedAt
            // TRANSLATORS: doctor: the catalogue: the language's code, how many chapters, the
            // site's latest page, when it was fetched ("3 h ago").
            let detail = ngettext("%s: %d chapter, latest page %d, fetched %s", "%s: %d chapters, latest page %d, fetched %s",
                                  catalogue.chapters.count, language.code, catalogue.chapters.count, catalogue.latestPage,
                                  surroundings.relative(catalogue.fetch.fetchedAt))
            guard age <= Self.staleAfterSeconds else {
                let days = Int(Self.staleAfterSeconds / 86_400)
                // TRANSLATORS: doctor: the catalogue line above, then how old is too old.
                return CheckResult(Self.name, .missing, ngettext("%s (older than %d day)", "%s (older than %d days)", days, detail, days),
                                   fix: "dbmultiverse sync\(Self.option(language))")
            }
            return CheckResult(Self.name, .ok, detail)
        }
    }

    private static func option(_ language: SiteLanguage) -> String { language == .english ? "" : " --language \(language.code)" }
}
