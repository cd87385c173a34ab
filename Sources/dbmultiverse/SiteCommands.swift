import ArgumentParser
import ComicDomain
import Site
import Localization

/// `--language L`, defaulting to the config file's `language = …`, else English.
struct LanguageOption: ParsableArguments {
    // TRANSLATORS: en, fr and pt_BR are language codes, kept as they are.
    @Option(help: ArgumentHelp(gettext("Site language code (en, fr, pt_BR, …); default: the config file's language, else en.")))
    var language: String?

    /// The language to use. Exits 2 naming the valid codes when it is not one of them.
    func resolved() throws -> SiteLanguage {
        do {
            return try Self.resolve(language)
        } catch {
            throw CommandFailure.usage(error.message)
        }
    }

    /// The reader's language (`ConfigFile.readerLanguage`) with `code` as the choice.
    /// - Throws: `invalidLanguage` naming the valid codes.
    static func resolve(_ code: String?) throws(ComicError) -> SiteLanguage {
        try ConfigFile.load(environment: environment()).readerLanguage(chosen: code.map { code throws(ComicError) in try SiteLanguage(validating: code) })
    }
}

/// The site configuration of this process; an invalid override exits 2.
func siteConfiguration() throws -> SiteConfiguration {
    do {
        return try SiteConfiguration.resolve(environment: environment()) { Output.error(gettext("warning: %s", $0)) }
    } catch {
        throw CommandFailure.usage(error.message)
    }
}

struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: gettext("Read the comic's feed and, when there are new pages, its chapter list."),
        // TRANSLATORS: `sync --help`: --force, Retry-After (an HTTP header), `import-history = yes` (a line
        // of the config file) and `import-history` (a command) stay as they are.
        discussion: gettext("Prints one summary line. Exit status 0 when the catalogue is up to date (new or not), 1 when the site fails (one line on stderr says why; nothing stored changes), 2 on bad usage. The site is asked at most once per 15 minutes per address unless --force; a Retry-After from the site holds even --force back. With `import-history = yes` in the config file, the newest page read in a browser is first imported from its history (as `import-history` does); that import's failure is one line on stderr and does not change the exit status."))

    @OptionGroup var language: LanguageOption
    // TRANSLATORS: Retry-After is an HTTP header, kept as it is.
    @Flag(help: ArgumentHelp(gettext("Read the chapter list too, and skip the 15-minute wait (not a Retry-After)."))) var force = false

    func run() throws {
        let language = try language.resolved()
        let configuration = try siteConfiguration()
        // Before the sync: the service must see the reader's new position before a newer latest
        // page, or the pages just read would be announced as new (`PageRecorder` hands the service
        // both in one call; the sync writes its catalogue to the folder, so it comes second).
        ImportHistoryCommand.importBeforeSync(environment: environment())
        let sync = CatalogueSync(configuration: configuration)
        do {
            Output.line(try sync.sync(language: language, force: force).line)
        } catch {
            throw CommandFailure(message: error.message, status: 1)
        }
    }
}

struct ChaptersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        // TRANSLATORS: `chapters --help`: sync is a command, kept as it is.
        commandName: "chapters", abstract: gettext("Print the stored chapter list (offline; see sync)."))

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @OptionGroup var language: LanguageOption
    // TRANSLATORS: text and json are values of --format, kept as they are.
    @Option(help: ArgumentHelp(gettext("Output: text (one line per chapter) or json (the stored catalogue)."))) var format: Format = .text

    func run() throws {
        let language = try language.resolved()
        let folder: DataFolder
        do {
            folder = try DataFolder.resolve(environment: environment())
        } catch {
            throw CommandFailure.usage(error.message)
        }
        let catalogue: Catalogue
        switch folder.readCatalogue(language) {
        case .missing:
            throw CommandFailure(message: gettext("no catalogue yet: run dbmultiverse sync"), status: 1)
        case .invalid(let reason):
            throw CommandFailure(message: gettext("the stored catalogue cannot be read (%s): run dbmultiverse sync", reason), status: 1)
        case .valid(let stored):
            catalogue = stored
        }
        switch format {
        case .json:
            Output.line(String(decoding: catalogue.encodeJSON(), as: UTF8.self))
        case .text:
            let range = catalogue.pageRange
            // TRANSLATORS: the catalogue: the language's code, how many chapters, its first and last
            // page, the site's latest page.
            Output.line(ngettext("%s: %d chapter, pages %d–%d, latest page %d", "%s: %d chapters, pages %d–%d, latest page %d",
                                 catalogue.chapters.count, language.code, catalogue.chapters.count, range.lowerBound, range.upperBound, catalogue.latestPage))
            for chapter in catalogue.chapters {
                Output.line(chapter.universe.map {
                    // TRANSLATORS: a chapter of a special: its universe, number, name, first and last page.
                    gettext("Special Universe %d · Chapter %d: %s — pages %d–%d", $0, chapter.number, chapter.name, chapter.startPage, chapter.endPage)
                } ?? gettext("Chapter %d: %s — pages %d–%d", chapter.number, chapter.name, chapter.startPage, chapter.endPage))
            }
        }
    }
}
