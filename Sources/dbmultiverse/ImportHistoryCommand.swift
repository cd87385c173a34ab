import ArgumentParser
import BrowserHistory
import ComicDomain
import DBus
import Recorder
import Site
import Localization

struct ImportHistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-history",
        abstract: gettext("Store the newest page of the comic read in a browser, from its history."),
        // TRANSLATORS: `import-history --help`: places.sqlite and History are file names,
        // `update --page` a command and --dry-run an option: keep them as they are.
        discussion: gettext("Reads Firefox (places.sqlite) and Chromium, Google Chrome, Brave, Vivaldi and Edge (History) profiles, including their snap and Flatpak homes, from private copies: a running browser is not disturbed and nothing is written next to its files. Prints the browser, profile, page and time of the newest visit, then stores that page as `update --page` does and prints where the reader now is. Exit 0 when it is stored (or found, with --dry-run), 1 when none is found, the history cannot be read or storing fails (nothing is stored then), 2 on bad usage."))

    // TRANSLATORS: `import-history --help`: %s lists the browsers as --browser takes them
    // ("firefox, chromium, …"); "all" is a value of --browser too: keep it as it is.
    @Option(help: ArgumentHelp(gettext("The browser whose profiles are read: %s, or all.", Browser.allCases.map(\.rawValue).joined(separator: ", "))))
    var browser: String?
    // TRANSLATORS: places.sqlite and History are file names, kept as they are.
    @Option(help: ArgumentHelp(gettext("A profile folder holding places.sqlite or History, instead of the browsers' own (repeatable)."), valueName: "folder"))
    var profile: [String] = []
    @Flag(help: ArgumentHelp(gettext("Print the newest visit only; store nothing."))) var dryRun = false

    /// The config file's key that makes `sync` import from history too (`import-history = yes`).
    static let configKey = "import-history"

    func run() throws {
        let environment = environment()
        let origin = try Self.siteOrigin(environment: environment)
        try Self.importNewest(from: try chosenProfiles(environment: environment), origin: origin, environment: environment, store: !dryRun)
    }

    /// `sync`'s import when the config file says `import-history = yes`: every browser's profiles,
    /// stored. Returns whether it ran; a failure is one line on stderr and does not throw, so a
    /// history-only reader's import never fails the sync. `sync` runs it first, so the service
    /// has the reader's position before any newer latest page (docs/notifications.md's new pages count
    /// only pages after it).
    @discardableResult
    static func importBeforeSync(environment: [String: String]) -> Bool {
        let setting = ConfigFile.load(environment: environment).switchValue(configKey, default: false)
        // TRANSLATORS: a problem of the configuration file follows.
        if let problem = setting.problem { Output.error(gettext("warning: %s", problem)) }
        guard setting.isOn else { return false }
        do {
            let origin = try siteOrigin(environment: environment)
            try importNewest(from: try profiles(of: Browser.allCases, environment: environment), origin: origin,
                             environment: environment, store: true)
        } catch let failure as CommandFailure {
            Output.error("import-history: \(failure.message)")
        } catch let error as DBusError {
            Output.error("import-history: \(error.message) (\(error.name))")
        } catch {
            Output.error("import-history: \(error)")
        }
        return true
    }

    private static func siteOrigin(environment: [String: String]) throws -> SiteOrigin {
        do {
            return try SiteOrigin.resolve(environment: environment)
        } catch {
            throw CommandFailure.usage(error.message)
        }
    }

    /// Finds the newest visit to a page of the comic in `profiles`, prints it and, when `store`,
    /// stores it through the page recorder (as `update --page`) and prints what was stored.
    /// - Throws: `CommandFailure` (status 1) when no visit is found or the page is not stored
    ///   (nothing is stored then); the bus's error when it cannot be reached.
    private static func importNewest(from profiles: [BrowserProfile], origin: SiteOrigin, environment: [String: String], store: Bool) throws {
        let outcome = HistoryLookup.newestPageVisit(
            in: profiles, origin: origin, temporaryRoot: HistoryLookup.temporaryRoot(environment: environment))
        guard let visit = outcome.newest else {
            // One clear line: the failure itself when the only profile could not be read.
            if profiles.count == 1, let failure = outcome.failures.first {
                throw CommandFailure(message: failure.description, status: 1)
            }
            // TRANSLATORS: a browser profile that could not be read, and why, follows.
            for failure in outcome.failures { Output.error(gettext("skipped %s", String(describing: failure))) }
            throw CommandFailure(message: nothingFound(in: profiles, outcome), status: 1)
        }
        for failure in outcome.failures { Output.error(gettext("skipped %s", String(describing: failure))) }
        Output.line(visit.description)
        guard store else { return }
        let recorder = PageRecorder(lookup: PageLookup(configuration: try siteConfiguration()), caller: try BlockingCaller())
        do {
            let stored = try recorder.record(visit.page)
            // TRANSLATORS: what was stored follows ("fr page 980: chapter 42…").
            Output.line(gettext("stored %s", String(describing: stored)))
        } catch {
            // TRANSLATORS: the page (its site address), then why it was not stored.
            throw CommandFailure(message: gettext("%s was not stored: %s", String(describing: visit.page), error.description), status: 1)
        }
    }

    /// The profiles `--profile` names, else those of `--browser` (all by default).
    private func chosenProfiles(environment: [String: String]) throws -> [BrowserProfile] {
        if !profile.isEmpty {
            guard browser == nil else { throw CommandFailure.usage(gettext("give --browser or --profile, not both")) }
            do {
                var profiles: [BrowserProfile] = []
                for folder in profile { profiles += try ProfileFinder.profiles(inFolder: folder) }
                return profiles
            } catch {
                throw CommandFailure.usage(error.message)
            }
        }
        let browsers: [Browser]
        switch browser {
        case nil, "all":
            browsers = Browser.allCases
        case let name?:
            do {
                browsers = [try Browser(validating: name)]
            } catch {
                throw CommandFailure.usage(error.message)
            }
        }
        return try Self.profiles(of: browsers, environment: environment)
    }

    /// The profiles of `browsers` found in their usual homes.
    /// - Throws: `CommandFailure` (status 1) naming where they were looked for when there is none.
    private static func profiles(of browsers: [Browser], environment: [String: String]) throws -> [BrowserProfile] {
        let finder = ProfileFinder(environment: environment)
        let search = finder.profiles(of: browsers)
        for problem in search.problems { Output.error(gettext("skipped %s", String(describing: problem))) }
        guard !search.profiles.isEmpty else {
            throw CommandFailure(message: finder.nothingFound(for: browsers).message, status: 1)
        }
        return search.profiles
    }

    /// The line for a lookup over several profiles that found no visit.
    private static func nothingFound(in profiles: [BrowserProfile], _ outcome: HistoryLookup.Outcome) -> String {
        let read = profiles.filter { profile in !outcome.failures.contains { $0.profile == profile } }
        guard !read.isEmpty else {
            return ngettext("none of the %d profile's histories could be read", "none of the %d profiles' histories could be read", profiles.count)
        }
        let names = read.map(\.description).joined(separator: ", ")
        // TRANSLATORS: the one browser profile read follows ("firefox profile abcd.default").
        guard read.count > 1 else { return gettext("no page of the comic in the history of %s", names) }
        // TRANSLATORS: how many browser profiles were read, then their list.
        return ngettext("no page of the comic in the history of %d profile: %s", "no page of the comic in the history of %d profiles: %s", read.count, read.count, names)
    }
}
