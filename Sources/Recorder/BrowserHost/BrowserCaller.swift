import ComicDomain
import Widget

/// Who started the host, read from the arguments browsers give a native messaging host.
package enum BrowserCaller: Sendable, Equatable, CustomStringConvertible {
    /// Firefox: the path of the host manifest it read, then the extension's id.
    case firefox(manifest: String, extensionID: String)
    /// A Chromium-family browser: the extension's origin, `chrome-extension://<id>/`.
    case chromium(origin: String)

    /// Recognises a browser's arguments; nil for anything else.
    ///
    /// Chromium: `chrome-extension://<id>/`, which Windows builds follow with
    /// `--parent-window=<handle>` (accepted here too). Firefox: the absolute path of a `.json`
    /// manifest, then the extension id.
    package init?(arguments: [String]) {
        if let origin = arguments.first, origin.hasPrefix("chrome-extension://"),
           arguments.dropFirst().allSatisfy({ $0.hasPrefix("--parent-window=") }), arguments.count <= 2 {
            self = .chromium(origin: origin)
        } else if arguments.count == 2, arguments[0].hasPrefix("/"), arguments[0].hasSuffix(".json"), !arguments[1].isEmpty {
            self = .firefox(manifest: arguments[0], extensionID: arguments[1])
        } else {
            return nil
        }
    }

    /// Whether the caller is our extension, the only one the host serves. The browsers already
    /// check the manifest's allowed list; this holds when a manifest names our binary for another.
    var isOurExtension: Bool {
        switch self {
        case .firefox(_, let extensionID): extensionID == BrowserExtension.firefoxID
        case .chromium(let origin): origin == BrowserExtension.chromiumOrigin
        }
    }

    /// The browser family, as `browserContacts.json` records it.
    var family: BrowserContacts.Family {
        switch self {
        case .firefox: .firefox
        case .chromium: .chromium
        }
    }

    package var description: String {
        switch self {
        case .firefox(_, let extensionID): "Firefox extension \(extensionID)"
        case .chromium(let origin): origin
        }
    }
}
