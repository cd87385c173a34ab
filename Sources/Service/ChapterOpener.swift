import ComicDomain
import Glibc
package import Logging

/// Shows a chapter on the comic's site in the user's browser (docs/deep-links.md). The browser is started
/// with posix_spawn (argv only, no shell) and never waited for: the service does not block. The
/// process that runs it reaps children by ignoring SIGCHLD (`ServiceMain` does); an opener never
/// changes that process-wide setting itself.
package final class ChapterOpener {
    /// Where the browser command comes from, first match wins.
    static let environmentVariable = "DBMULTIVERSE_BROWSER"

    private let environment: [String: String]
    private let logger: Logger
    /// The site the opened pages are on: `$DBMULTIVERSE_SITE_URL`, or the real site when it is
    /// unset or invalid (logged: the opener falls back rather than open a broken address).
    let origin: SiteOrigin

    package init(environment: [String: String], logger: Logger) {
        self.environment = environment
        self.logger = logger
        do {
            origin = try SiteOrigin.resolve(environment: environment)
        } catch {
            logger.error("ignoring \(SiteOrigin.environmentVariable): \(error.message); links open \(SiteOrigin.site)")
            origin = .site
        }
    }

    /// `$XDG_CONFIG_HOME/dbmultiverse/config`, else `~/.config/dbmultiverse/config`.
    static func configPath(environment: [String: String]) -> String? {
        ConfigFile.path(environment: environment)
    }

    /// The configured command: the environment variable, else the config file's `browser =` line,
    /// else `xdg-open`. Read on every open, so an edited config applies at once.
    func browser() -> BrowserCommand {
        if let value = environment[Self.environmentVariable], !value.trimmingWhitespace().isEmpty {
            if let command = BrowserCommand.parse(value) { return command }
            logger.warning("ignoring \(Self.environmentVariable): unterminated quote in '\(value)'")
        }
        if let value = ConfigFile.load(environment: environment)["browser"] {
            if let command = BrowserCommand.parse(value) { return command }
            logger.warning("ignoring the browser line of \(Self.configPath(environment: environment) ?? "the config file"): cannot parse '\(value)'")
        }
        return .default
    }

    /// Starts the browser on `url`, handing over the activation token so the window gets focus.
    func open(url: String, activationToken: String? = nil, startupID: String? = nil) {
        guard let arguments = browser().arguments(opening: url) else {
            logger.info("browser disabled (none): not opening \(url)")
            return
        }
        var childEnvironment = environment
        if let activationToken { childEnvironment["XDG_ACTIVATION_TOKEN"] = activationToken }
        if let startupID { childEnvironment["DESKTOP_STARTUP_ID"] = startupID }
        if let error = spawn(arguments, environment: childEnvironment) {
            logger.error("cannot start the browser \(arguments[0]): \(error)")
        } else {
            logger.info("opened \(url) with \(arguments[0])")
        }
    }

    /// posix_spawnp with a clean signal mask and default dispositions (the service blocks
    /// SIGTERM/SIGINT for its signalfd and ignores SIGCHLD; the browser must not inherit that).
    private func spawn(_ arguments: [String], environment: [String: String]) -> String? {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGCHLD, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let result = posix_spawnp(&pid, arguments[0], nil, &attributes, argv, envp)
        return result == 0 ? nil : String(cString: strerror(result))
    }
}
