import ComicDomain
/// How a browser keeps its history: the file in a profile folder, and what is in it.
package enum HistoryFormat: String, Sendable, Hashable, CaseIterable {
    /// Firefox: `places.sqlite`, visit times in µs since 1970-01-01 UTC.
    case firefox
    /// Chromium and the browsers built on it: `History`, visit times in µs since 1601-01-01 UTC.
    case chromium

    /// The history database's name in a profile folder.
    package var databaseName: String {
        switch self {
        case .firefox: "places.sqlite"
        case .chromium: "History"
        }
    }
}

/// A browser whose profiles `import-history` finds by itself.
package enum Browser: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case firefox, chromium, chrome, brave, vivaldi, edge

    /// The browser named `name` (`firefox`, `chromium`, `chrome`, `brave`, `vivaldi`, `edge`).
    /// - Throws: `invalidArgument`, naming the valid names.
    package init(validating name: String) throws(HistoryError) {
        guard let browser = Browser(rawValue: name) else {
            throw HistoryError(.invalidArgument,
                               "unknown browser \"\(name)\": the browsers are \(Browser.allCases.map(\.rawValue).joined(separator: ", ")) and all")
        }
        self = browser
    }

    package var description: String { rawValue }

    package var format: HistoryFormat { self == .firefox ? .firefox : .chromium }

    /// The user-data folder below `$XDG_CONFIG_HOME` of a Chromium-family browser (nil for Firefox).
    var chromiumConfigFolder: String? {
        switch self {
        case .firefox: nil
        case .chromium: "chromium"
        case .chrome: "google-chrome"
        case .brave: "BraveSoftware/Brave-Browser"
        case .vivaldi: "vivaldi"
        case .edge: "microsoft-edge"
        }
    }

    /// The Flatpak application id the browser is published under.
    var flatpakID: String {
        switch self {
        case .firefox: "org.mozilla.firefox"
        case .chromium: "org.chromium.Chromium"
        case .chrome: "com.google.Chrome"
        case .brave: "com.brave.Browser"
        case .vivaldi: "com.vivaldi.Vivaldi"
        case .edge: "com.microsoft.Edge"
        }
    }
}
