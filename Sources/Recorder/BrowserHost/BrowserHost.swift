import ComicDomain
import JSON
import Glibc
package import Logging
import Widget

/// The native messaging host (docs/browser-extension.md): reads framed requests from the browser and answers
/// each with one framed reply, storing valid pages first. Nothing but replies goes to `output`;
/// diagnostics go to the logger (stderr).
///
/// A browser starts one host per message and closes its input after the reply (Chromium kills it
/// ~2 s later, Firefox sends SIGTERM ~3 s later), so the host exits as soon as its input ends.
struct BrowserHost {
    /// The site whose pages are accepted beside the real one (`$DBMULTIVERSE_SITE_URL`), or why
    /// the variable is unusable (then every page request is refused with that reason).
    let origin: Result<SiteOrigin, ComicError>
    let store: any PageStore

    init(origin: Result<SiteOrigin, ComicError>, store: any PageStore) {
        self.origin = origin
        self.store = store
    }

    /// Answers one message: a valid page request is stored, then answered with where the reader
    /// now is; anything else is refused without reaching the store.
    func reply(to message: [UInt8]) -> BrowserReply {
        do throws(BrowserHostError) {
            let origin: SiteOrigin
            switch self.origin {
            case .success(let site): origin = site
            case .failure(let error): throw BrowserHostError(error.message)
            }
            switch try BrowserRequest(message: message, origin: origin) {
            case .page(let page): return .stored(try store.store(page))
            }
        } catch {
            return .refused(error)
        }
    }

    /// Serves requests from `input` until it ends. Returns the exit status: 0 when the input ended
    /// between messages, 1 when its framing broke (reason logged; an oversized length is also
    /// answered, since the browser still waits for a reply) or a read or write failed.
    func serve(input: Int32, output: Int32, logger: Logger) -> Int32 {
        var decoder = FrameDecoder()
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count: Int
            switch Posix.readSome(input, into: &chunk) {
            case .success(let read): count = read
            case .failure(let error):
                logger.error("cannot read the browser's messages: \(error.text)")
                return 1
            }
            guard count > 0 else {
                do {
                    try decoder.finish()
                    return 0
                } catch {
                    logger.error("\(error)")
                    return 1
                }
            }
            decoder.append(chunk[..<count])
            do {
                while let message = try decoder.nextMessage() {
                    let reply = reply(to: message)
                    switch reply {
                    case .stored(let position):
                        logger.info("\(position.page): chapter \(position.chapter), \(position.progress)%")
                    case .refused(let error):
                        logger.warning("refused: \(error.message)")
                    }
                    guard send(reply, to: output, logger: logger) else { return 1 }
                }
            } catch {
                logger.error("\(error)")
                _ = send(.refused(BrowserHostError(error.description)), to: output, logger: logger)
                return 1
            }
        }
    }

    private func send(_ reply: BrowserReply, to output: Int32, logger: Logger) -> Bool {
        if case .failure(let error) = Posix.writeAll(output, reply.frame) {
            logger.error("cannot write the reply to the browser: \(error.text)")
            return false
        }
        return true
    }
}

/// `dbmultiverse browser-host`, and the binary started by a browser through the host manifest.
package enum BrowserHostMain {
    /// Checks who started the host, then serves standard input and output. Returns the exit status.
    ///
    /// - Parameter arguments: the browser's arguments (see `BrowserCaller`), or none when started
    ///   by hand. Another extension's origin or id ends the host at once (status 1); arguments no
    ///   browser passes are bad usage (status 2).
    package static func run(arguments: [String], environment: [String: String], store: any PageStore, logger: Logger) -> Int32 {
        if !arguments.isEmpty {
            guard let caller = BrowserCaller(arguments: arguments) else {
                logger.error("browser-host: unexpected arguments \(arguments): a browser passes its extension's origin (Chromium) or the manifest path and extension id (Firefox)")
                return 2
            }
            guard caller.isOurExtension else {
                logger.error("refusing \(caller): only the DBMultiverse extension (\(BrowserExtension.chromiumOrigin), \(BrowserExtension.firefoxID)) may use this host")
                return 1
            }
            do {
                recordContact(caller, folder: try DataFolder.resolve(environment: environment), logger: logger)
            } catch {
                logger.error("not noting that \(caller.family) started the host: \(error.message)")
            }
        }
        // A browser that stops listening must not kill the host before it logs why.
        signal(SIGPIPE, SIG_IGN)
        let origin = Result { () throws(ComicError) in try SiteOrigin.resolve(environment: environment) }
        return BrowserHost(origin: origin, store: store).serve(input: 0, output: 1, logger: logger)
    }

    /// Notes in `browserContacts.json` that `caller`'s extension started the host now, with the
    /// browser's executable (the host's parent), for `dbmultiverse doctor`. A record that can't be
    /// written is logged: the pages go on being stored.
    static func recordContact(_ caller: BrowserCaller, folder: DataFolder, logger: Logger) {
        var contacts = folder.readBrowserContacts().value ?? BrowserContacts()
        contacts.record(caller.family, at: Int64(time(nil)), browser: parentExecutableName())
        do {
            try folder.writeBrowserContacts(contacts)
        } catch {
            logger.warning("cannot note the browser's visit in \(DataFolder.browserContactsFile): \(error.message)")
        }
    }

    /// The file name of the parent process's executable (the browser that started the host), ""
    /// when the kernel does not say.
    private static func parentExecutableName() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/\(getppid())/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return "" }
        let path = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(path.split(separator: "/").last ?? "")
    }
}
