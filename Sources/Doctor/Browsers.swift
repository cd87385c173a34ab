import ComicDomain

/// A browser the extension is for, as Debian and the vendors install it.
struct BrowserKind: Sendable, Equatable {
    /// The line's name: `firefox-esr`, `chromium`, `google-chrome`, …
    let name: String
    /// What people call it.
    let title: String
    /// The commands that start it, first the usual one.
    let programs: [String]
    let family: BrowserContacts.Family
    /// Its user folder of host manifests, below the home folder (Firefox) or `$XDG_CONFIG_HOME`.
    let userFolder: String
    /// Its system folders of host manifests (scripts/build/browser-hosts.sh lists where each reads them).
    let systemFolders: [String]
    /// The executable names `browserContacts.json` records for it.
    let contactNames: [String]
    /// Its Flatpak application id.
    let flatpakID: String
    /// Its page of extensions, for the fix.
    let extensionsPage: String

    /// Debian's and the vendors' browsers, in the order the lines are printed.
    static let all: [BrowserKind] = [
        .firefox(name: "firefox-esr", title: "Firefox ESR", contactNames: ["firefox-esr"], flatpakID: ""),
        .firefox(name: "firefox", title: "Firefox", contactNames: ["firefox", "firefox-bin"], flatpakID: "org.mozilla.firefox"),
        .chromium(name: "chromium", title: "Chromium", programs: ["chromium", "chromium-browser"], contactNames: ["chromium", "chromium-browser"],
                  configFolder: "chromium", systemFolder: "/etc/chromium", flatpakID: "org.chromium.Chromium", extensionsPage: "chrome://extensions"),
        .chromium(name: "google-chrome", title: "Google Chrome", programs: ["google-chrome", "google-chrome-stable"], contactNames: ["chrome", "google-chrome"],
                  configFolder: "google-chrome", systemFolder: "/etc/opt/chrome", flatpakID: "com.google.Chrome", extensionsPage: "chrome://extensions"),
        .chromium(name: "brave", title: "Brave", programs: ["brave-browser", "brave-browser-stable", "brave"], contactNames: ["brave", "brave-browser"],
                  configFolder: "BraveSoftware/Brave-Browser", systemFolder: "/etc/opt/chrome", flatpakID: "com.brave.Browser", extensionsPage: "brave://extensions"),
        .chromium(name: "vivaldi", title: "Vivaldi", programs: ["vivaldi", "vivaldi-stable"], contactNames: ["vivaldi", "vivaldi-bin"],
                  configFolder: "vivaldi", systemFolder: "/etc/opt/vivaldi", flatpakID: "com.vivaldi.Vivaldi", extensionsPage: "vivaldi://extensions"),
        .chromium(name: "microsoft-edge", title: "Microsoft Edge", programs: ["microsoft-edge", "microsoft-edge-stable"], contactNames: ["msedge", "microsoft-edge"],
                  configFolder: "microsoft-edge", systemFolder: "/etc/opt/edge", flatpakID: "com.microsoft.Edge", extensionsPage: "edge://extensions"),
    ]

    /// A Firefox: its command is its name; every one reads the same host manifest folders (MDN,
    /// "Native manifests", Linux) and lists extensions at about:addons.
    static func firefox(name: String, title: String, contactNames: [String], flatpakID: String) -> BrowserKind {
        BrowserKind(name: name, title: title, programs: [name], family: .firefox, userFolder: "~/.mozilla/native-messaging-hosts",
                    systemFolders: ["/usr/lib/mozilla/native-messaging-hosts", "/usr/lib64/mozilla/native-messaging-hosts"],
                    contactNames: contactNames, flatpakID: flatpakID, extensionsPage: "about:addons")
    }

    /// A browser of the Chromium family: host manifests in `NativeMessagingHosts` of its folder in
    /// `$XDG_CONFIG_HOME`, and in `native-messaging-hosts` of its folder in /etc (developer.chrome.com,
    /// "Native messaging"; scripts/build/browser-hosts.sh writes them there).
    static func chromium(name: String, title: String, programs: [String], contactNames: [String], configFolder: String, systemFolder: String,
                         flatpakID: String, extensionsPage: String) -> BrowserKind {
        BrowserKind(name: name, title: title, programs: programs, family: .chromium, userFolder: configFolder + "/NativeMessagingHosts",
                    systemFolders: [systemFolder + "/native-messaging-hosts"], contactNames: contactNames, flatpakID: flatpakID,
                    extensionsPage: extensionsPage)
    }

    /// The host manifest paths the browser reads, in its order: the user's first, then the system's.
    func manifestPaths(_ surroundings: Surroundings) -> [String] {
        let user = userFolder.hasPrefix("~/")
            ? surroundings.home + userFolder.dropFirst(1)
            : surroundings.configHome + "/" + userFolder
        return ([user] + systemFolders).map { $0 + "/" + HostManifest.fileName }
    }
}

/// How a browser is installed here.
enum Packaging: String, Sendable, Equatable {
    /// A package of the system (Debian's, or the vendor's .deb): it reads the host manifests.
    case native
    /// Confined packages: they cannot start a host of the system (history import instead).
    case snap, flatpak
}

/// A browser found on this machine.
struct FoundBrowser: Sendable, Equatable {
    let kind: BrowserKind
    let packaging: Packaging
    /// Where it was found (the program, or the snap's or Flatpak's launcher).
    let path: String

    init(kind: BrowserKind, packaging: Packaging, path: String) {
        self.kind = kind
        self.packaging = packaging
        self.path = path
    }

    /// Every browser of `BrowserKind.all` installed here: on `PATH` (a command that is the snap
    /// launcher counts as a snap), in `/snap/bin`, and among the system's and the user's Flatpaks.
    static func find(_ surroundings: Surroundings) -> [FoundBrowser] {
        var found: [FoundBrowser] = []
        for kind in BrowserKind.all {
            var snap: String?
            if let path = kind.programs.lazy.compactMap(surroundings.program).first, !isFirefoxESRWrapper(path, kind) {
                if isSnapLauncher(path) { snap = path } else { found.append(FoundBrowser(kind: kind, packaging: .native, path: path)) }
            }
            if snap == nil { snap = kind.programs.lazy.map { "/snap/bin/" + $0 }.first(where: Files.isExecutable) }
            if let snap { found.append(FoundBrowser(kind: kind, packaging: .snap, path: snap)) }
            if !kind.flatpakID.isEmpty,
               let flatpak = ["/var/lib/flatpak", surroundings.dataHome + "/flatpak"].lazy
                .map({ $0 + "/exports/bin/" + kind.flatpakID }).first(where: Files.isExecutable) {
                found.append(FoundBrowser(kind: kind, packaging: .flatpak, path: flatpak))
            }
        }
        return found
    }

    /// Debian's firefox-esr diverts `firefox` to a script that runs firefox-esr (or `firefox.real`
    /// once another Firefox is installed): then `firefox` is Firefox ESR again, not a second browser.
    static func isFirefoxESRWrapper(_ path: String, _ kind: BrowserKind) -> Bool {
        guard kind.name == "firefox", !Files.isExecutable(path + ".real"),
              let bytes = Files.read(path, limit: 4096), bytes.starts(with: Array("#!".utf8))
        else { return false }
        return String(decoding: bytes, as: UTF8.self).contains("firefox-esr")
    }

    /// A program that is snap's: in /snap/bin, a link to /usr/bin/snap, or a small script that
    /// runs /snap/bin (Ubuntu's transitional packages).
    static func isSnapLauncher(_ path: String) -> Bool {
        if path.hasPrefix("/snap/bin/") { return true }
        if let target = Files.linkTarget(path), target.hasSuffix("/snap") || target.hasPrefix("/snap/") { return true }
        guard let bytes = Files.read(path, limit: 4096), bytes.starts(with: Array("#!".utf8)) else { return false }
        return String(decoding: bytes, as: UTF8.self).contains("/snap/bin/")
    }
}
