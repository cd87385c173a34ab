package import ComicDomain

/// One installed browser: the host manifest it reads (valid, naming an executable and our
/// extension), and when its extension last talked to the host.
package struct BrowserCheck: Sendable {
    package struct Reading: Sendable, Equatable {
        package var browser: FoundBrowser
        /// The first host manifest the browser would read, and what is wrong with it (nil: fine);
        /// nil when there is none.
        package var manifest: Manifest?
        package var contacts: BrowserContacts
        /// The extension as the Debian package ships it for this browser (Firefox ESR, Chromium), if installed.
        package var systemExtension: String?
        /// The unpacked extension for "Load unpacked" (the package's copy), if installed.
        package var unpackedExtension: String?
        /// `import-history = yes` in the config file: the timer's sync imports from the history.
        package var importsHistory: Bool
    }

    /// A host manifest found, and what is wrong with it (nil: nothing).
    package struct Manifest: Sendable, Equatable {
        package let path: String
        package let problem: String?
    }

    /// Where the Debian package puts the extension for Firefox ESR and Chromium (DESIGN §16).
    static let firefoxSystemExtension = "/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/dbmultiverse@nobadi.com"
    static let chromiumSystemExtension = "/usr/share/chromium/extensions/dbmultiverse"

    package let reading: Reading

    package init(_ reading: Reading) { self.reading = reading }

    package static func read(_ browser: FoundBrowser, contacts: BrowserContacts, _ surroundings: Surroundings) -> Reading {
        let manifest = browser.kind.manifestPaths(surroundings).lazy.compactMap { path -> Manifest? in
            guard let bytes = Files.read(path) else {
                // A dangling link (a removed package's) is no manifest for the browser either.
                return Files.linkTarget(path).map { Manifest(path: path, problem: "it is a link to \($0), which cannot be read") }
            }
            return Manifest(path: path, problem: HostManifest.problem(in: bytes, family: browser.kind.family))
        }.first
        let systemExtension = switch browser.kind.name {
        case "firefox-esr": firefoxSystemExtension
        case "chromium": chromiumSystemExtension
        default: nil as String?
        }
        return Reading(
            browser: browser, manifest: manifest, contacts: contacts,
            systemExtension: systemExtension.flatMap { Files.isDirectory($0) ? $0 : nil },
            unpackedExtension: surroundings.firstData("dbmultiverse/browser/extension", where: Files.isDirectory),
            importsHistory: surroundings.config.switchValue("import-history", default: false).isOn)
    }

    package func result(_ surroundings: Surroundings) -> CheckResult {
        let kind = reading.browser.kind
        switch reading.browser.packaging {
        case .snap, .flatpak:
            let name = "browser \(kind.name) (\(reading.browser.packaging.rawValue))"
            let detail = "a \(reading.browser.packaging.rawValue) cannot start the host; history import reads what you read there"
            return reading.importsHistory
                ? CheckResult(name, .ok, detail + " (import-history = yes: every sync imports it)")
                : CheckResult(name, .unavailable, detail, fix: "dbmultiverse import-history (or import-history = yes in \(shellWord(surroundings.configPath)))")
        case .native:
            break
        }
        let name = "browser \(kind.name)"
        guard let manifest = reading.manifest else {
            let folders = kind.manifestPaths(surroundings).prefix(2).map { surroundings.short(String($0.dropLast(HostManifest.fileName.count + 1))) }
            return CheckResult(name, .missing, "no host manifest (in \(folders.joined(separator: " or ")))",
                               fix: ServiceCheck.installFix)
        }
        if let problem = manifest.problem {
            return CheckResult(name, .missing, "host manifest \(surroundings.short(manifest.path)) ✗: \(problem)",
                               fix: "rm \(shellWord(manifest.path)) if you made it; then \(ServiceCheck.installFix)")
        }
        let prefix = "host manifest \(surroundings.short(manifest.path)) ✓, "
        let contact = reading.contacts.contacts[kind.family]
        if let contact, kind.contactNames.contains(contact.browser) {
            return CheckResult(name, .ok, prefix + "the extension last talked to the host \(surroundings.relative(contact.at))")
        }
        let sibling = contact.map { " (the \(kind.family.rawValue) family's last contact: \($0.browser), \(surroundings.relative($0.at)))" } ?? ""
        return CheckResult(name, .missing, prefix + "the extension never talked to the host" + sibling, fix: extensionFix)
    }

    /// What the user does in this browser so that the extension talks to the host (README,
    /// "Debian package" and "Reading in the browser").
    private var extensionFix: String {
        let kind = reading.browser.kind
        let readOnce = "then read a page of the comic"
        if let system = reading.systemExtension {
            return kind.family == .firefox
                ? "restart \(kind.title) (it loads \(system) at its next start), check DBMultiverse Desktop is on in about:addons, \(readOnce)"
                : "start Chromium as chromium (Debian's wrapper loads \(system)), \(readOnce)"
        }
        let folder = reading.unpackedExtension ?? "the browser/ folder of the source"
        switch kind.name {
        case "firefox-esr":
            return "about:config: xpinstall.signatures.required = false, then about:addons → Install Add-on From File (make browser-extension builds the .xpi), \(readOnce)"
        case "firefox":
            return "about:debugging → This Firefox → Load Temporary Add-on… → \(folder)/manifest.json (until Firefox restarts), \(readOnce); or dbmultiverse import-history"
        default:
            return "\(kind.extensionsPage) → Developer mode → Load unpacked → \(folder), \(readOnce)"
        }
    }
}

/// The browsers line when none is installed.
package enum NoBrowserCheck {
    package static var result: CheckResult {
        CheckResult("browsers", .unavailable, "none of Firefox, Chromium, Google Chrome, Brave, Vivaldi or Edge found",
                    fix: "dbmultiverse import-history reads a browser's history from elsewhere")
    }
}
