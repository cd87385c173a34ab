import ComicDomain
import Glibc
import Logging
import Recorder
import Widget

/// `dbmultiverse-browser-host`: the browser extension's native messaging host as the host manifests
/// name it, an executable of its own that links only what the host runs (the recorder and the
/// site code; no history, doctor, tray or argument parser: docs/architecture.md, "The processes").
/// Browsers start it with their own arguments (Firefox: the manifest's path and the extension id;
/// Chromium: the extension's origin); `dbmultiverse browser-host` runs the same host.
@main
enum BrowserHostExecutable {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--version"] {
            print(ProjectInfo.version)
            exit(0)
        }
        ProcessStart.start()
        let environment = ProcessStart.environment()
        let logger = Logger(label: "dbmultiverse.browser-host")
        exit(BrowserHostMain.run(arguments: arguments, environment: environment,
                                 store: RecordingPageStore(environment: environment, logger: logger), logger: logger))
    }
}
