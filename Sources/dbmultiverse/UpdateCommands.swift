import ArgumentParser
import ComicDomain
import DBus
import Widget
import Recorder
import Glibc
import Site
import Localization

struct UpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update", abstract: gettext("Store the chapter being read (as the reader app does), or the page being read."),
        // TRANSLATORS: `update --help`: keep the line breaks and the indentation (two and four spaces,
        // lines no longer than the English ones), the options and their placeholders (N, S, P, FILE, L),
        // en and sync as they are.
        discussion: gettext("Two forms:\n  --chapter N --name S --progress P [--cover FILE] [--page N] [--language L]:\n    the chapter as given, as the reader app stores it;\n  --page N [--language L]:\n    the reader is on page N of the comic. Its chapter, name and progress come\n    from the catalogue of the language (fetched from the site when there is\n    none or N is past its last page), its cover only when the chapter differs\n    from the stored one. Prints where the reader now is. The language is\n    --language, else the config file's language, else en (as for sync).\nExit status 1 when the site or the bus fails, 2 on bad usage."))

    @Option(help: ArgumentHelp(gettext("Chapter number, 1…99999."))) var chapter: Int?
    @Option(help: ArgumentHelp(gettext("Chapter name, 1…256 characters (at most 1024 Unicode scalars, 4096 UTF-8 bytes)."))) var name: String?
    @Option(help: ArgumentHelp(gettext("Read progress, 0…100."))) var progress: Int?
    @Option(help: ArgumentHelp(gettext("Cover image file (JPEG or PNG, at most 8 MiB)."))) var cover: String?
    @Option(help: ArgumentHelp(gettext("The page being read on the comic's site, 1…99999; alone, the chapter is looked up."))) var page: Int?
    @Option(help: ArgumentHelp(gettext("Site language code, e.g. en or fr."))) var language: String?

    func run() throws {
        if chapter == nil, name == nil, progress == nil {
            try recordPage()
        } else {
            try storeChapter()
        }
    }

    /// `--chapter`, `--name` and `--progress` (with the options): stored as given.
    private func storeChapter() throws {
        let missing = [("--chapter", chapter == nil), ("--name", name == nil), ("--progress", progress == nil)].filter(\.1).map(\.0)
        guard let chapter, let name, let progress else {
            // TRANSLATORS: the options missing follow (e.g. "--name, --progress").
            throw CommandFailure.usage(gettext("give --chapter, --name and --progress together (missing %s), or --page N alone to look the chapter up", missing.joined(separator: ", ")))
        }
        // Checked here too, so bad input never reaches the bus and exits 2.
        do {
            _ = try ChapterData(validatingNumber: chapter, name: name, progress: progress, page: page, language: language)
        } catch {
            throw CommandFailure.usage(error.message)
        }
        let coverBytes = try cover.map(readCover) ?? []
        try BlockingCaller().call(WidgetClient().updateChapter(chapter, name: name, progress: progress, cover: coverBytes,
                                                               page: page, language: language))
    }

    /// `--page N [--language L]` alone: the page recorder (catalogue, cover, UpdatePage).
    private func recordPage() throws {
        guard let page else {
            throw CommandFailure.usage(gettext("give --page N (the page being read), or --chapter, --name and --progress"))
        }
        guard cover == nil else {
            throw CommandFailure.usage(gettext("--cover goes with --chapter, --name and --progress; with --page alone the cover comes from the site"))
        }
        let sitePage: SitePage
        do {
            sitePage = try SitePage(language: try LanguageOption.resolve(language), number: page)
        } catch {
            throw CommandFailure.usage(error.message)
        }
        let recorder = PageRecorder(lookup: PageLookup(configuration: try siteConfiguration()), caller: try BlockingCaller())
        do {
            Output.line(try recorder.record(sitePage).description)
        } catch {
            throw CommandFailure(message: error.description, status: 1)
        }
    }

    private func readCover(_ path: String) throws -> [UInt8] {
        do {
            return try CoverImage.read(path: path)
        } catch {
            throw CommandFailure.usage(error.message)
        }
    }
}

struct ProgressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "progress", abstract: gettext("Store the read progress of the current chapter (0…100)."))

    @Argument(help: ArgumentHelp(gettext("Read progress, 0…100."))) var progress: Int

    func run() throws {
        do {
            _ = try ChapterData.validProgress(progress)
        } catch {
            throw CommandFailure.usage(error.message)
        }
        try BlockingCaller().call(WidgetClient().updateProgress(progress))
    }
}

struct ReloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload", abstract: gettext("Re-read storage and signal a reload of the widget."))

    @Option(help: ArgumentHelp(gettext("The widget kind."))) var kind: String = WidgetKind.name

    func run() throws {
        try BlockingCaller().call(WidgetClient().reloadTimelines(kind: kind))
    }
}

struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        // TRANSLATORS: `open --help`: dbmultiverse:// is the deep links' scheme and Exec a key of the
        // desktop file, kept as they are.
        commandName: "open", abstract: gettext("Open a dbmultiverse:// deep link (the URL handler's Exec)."),
        // TRANSLATORS: the example commands and links, Activate, --current and ActivateAction
        // open-current stay as they are; "Continue reading" is the desktop action's name as the desktop file
        // translates it. Keep the line breaks and the indentation that lines up the two examples.
        discussion: gettext("Examples: dbmultiverse open dbmultiverse://chapter/42\n          dbmultiverse open dbmultiverse://page/980 (a page of the comic)\nWithout a link it opens the chapter being read, as launching the app does (Activate); --current is the desktop action \"Continue reading\" (ActivateAction open-current)."))

    // TRANSLATORS: the links stay as they are.
    @Argument(help: ArgumentHelp(gettext("A link such as dbmultiverse://chapter/42 or dbmultiverse://page/980."))) var uri: String?
    @Flag(help: ArgumentHelp(gettext("Open the chapter being read (or the chapter list when there is none) instead of a link.")))
    var current = false

    func validate() throws {
        if current, uri != nil { throw ValidationError(gettext("give either a link or --current, not both")) }
    }

    func run() throws {
        var link: ComicLink?
        if let uri {
            do {
                link = try ComicLink(parsing: uri)
            } catch {
                throw CommandFailure.usage(error.message)
            }
        }
        let launch = LaunchContext(environment: environment())
        let widget = WidgetClient()
        let caller = try BlockingCaller()
        if let link {
            try caller.call(widget.open([link], launch))
        } else if current {
            try caller.call(widget.activateAction(.openCurrent, launch))
        } else {
            try caller.call(widget.activate(launch))
        }
    }
}
