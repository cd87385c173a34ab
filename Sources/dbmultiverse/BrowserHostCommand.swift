import ArgumentParser
import Recorder
import Logging
import Localization

struct BrowserHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browser-host",
        abstract: gettext("Run the browser extension's native messaging host (com.nobadi.dbmultiverse)."),
        // TRANSLATORS: `browser-host --help`: `make install` and `update --page` are commands,
        // stdin and stdout the standard streams: keep them as they are.
        discussion: gettext("Browsers start it through the host manifest that `make install` writes: Firefox passes the manifest's path and the extension id, Chromium-family browsers the extension's origin. It reads framed requests on stdin, stores each page as `update --page` does (the service is started by D-Bus activation when needed), answers on stdout and exits when stdin ends.")
    )

    @Argument(help: ArgumentHelp(gettext("The browser's arguments."))) var browserArguments: [String] = []

    /// Runs the host to its exit status (also `Main`'s parser-free path for `browser-host` alone).
    static func runHost(_ arguments: [String]) -> Int32 {
        let environment = environment()
        let logger = Logger(label: "dbmultiverse.browser-host")
        return BrowserHostMain.run(arguments: arguments, environment: environment,
                                   store: RecordingPageStore(environment: environment, logger: logger), logger: logger)
    }

    func run() throws {
        let status = Self.runHost(browserArguments)
        if status != 0 { throw ExitCode(status) }
    }
}
