import Glibc
import Localization
import Logging

/// What every entry point of the project's processes does first (the command line, and the small
/// executables the long-running processes run as: docs/architecture.md, "The processes"): log to
/// standard error at `$DBMULTIVERSE_LOG_LEVEL`, read the environment, find its own executable and
/// the small executables installed beside it.
package enum ProcessStart {
    /// The start of every process: the session's language for what it shows (docs/translations.md;
    /// setlocale, once, before any thread), then logging.
    package static func start() {
        let catalogueProblem = Localization.start(environment: environment())
        bootstrapLogging()
        if let catalogueProblem { Logger(label: "dbmultiverse").warning("\(catalogueProblem)") }
    }

    /// Logs to standard error at `$DBMULTIVERSE_LOG_LEVEL` (info unless set).
    static func bootstrapLogging() {
        let level = getenv("DBMULTIVERSE_LOG_LEVEL").flatMap { Logger.Level(rawValue: String(cString: $0)) } ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

    /// Writes `text` and a newline to standard error (no shared `FILE*`).
    package static func printError(_ text: String) {
        var bytes = Array((text + "\n").utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// The process environment as a dictionary.
    package static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }

    /// The running executable's path, symbolic links resolved ("" when /proc is not there).
    package static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }

    /// Where a small executable (`dbmultiverse-service`, `dbmultiverse-notifier`) is looked for,
    /// from the running binary's real path `executable`: installed, `../libexec/dbmultiverse/NAME`
    /// (make install, the package); built, `NAME` in the same folder (SwiftPM's build folder).
    package static func siblingCandidates(_ name: String, executable: String) -> [String] {
        guard let slash = executable.lastIndex(of: "/") else { return [] }
        let folder = String(executable[..<slash])
        let parent = folder.lastIndex(of: "/").map { String(folder[..<$0]) } ?? ""
        return ["\(parent)/libexec/dbmultiverse/\(name)", "\(folder)/\(name)"]
    }

    /// Replaces this process with the small executable `name` found beside the running binary,
    /// passing `arguments`; returns only when there is none (or exec fails), with the message to
    /// print.
    package static func execSibling(_ name: String, arguments: [String]) -> String {
        let candidates = siblingCandidates(name, executable: executablePath())
        guard let path = candidates.first(where: { access($0, X_OK) == 0 }) else {
            let places = candidates.isEmpty ? "(the running binary's path is unknown)" : candidates.joined(separator: " or ")
            return "cannot find \(name), which this command runs: looked for \(places). Reinstall (make install, or the dbmultiverse package)."
        }
        return exec(path, arguments: arguments)
    }

    /// Replaces this process with the executable at `path`, passing `arguments`; returns only when
    /// exec fails, with the message to print.
    package static func exec(_ path: String, arguments: [String]) -> String {
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let reason = String(cString: strerror(errno))
        argv.forEach { free($0) }
        return "cannot run \(path): \(reason)"
    }
}
