import ComicDomain
import Localization

/// One installed browser: the host manifest it reads (valid, naming an executable and our
/// extension), and when its extension last talked to the host.
struct BrowserCheck: Sendable {
    struct Reading: Sendable, Equatable {
        var browser: FoundBrowser
        /// The first host manifest the browser would read, and what is wrong with it (nil: fine);
        /// nil when there is none.
        var manifest: Manifest?
        var contacts: BrowserContacts
        /// The extension as the Debian package ships it for this browser (Firefox ESR, Chromium), if installed.
        var systemExtension: String?
        /// The unpacked extension for "Load unpacked" (the package's copy), if installed.
        var unpackedExtension: String?
        /// `import-history = yes` in the config file: the timer's sync imports from the history.
        var importsHistory: Bool
    }

    /// A host manifest found, and what is wrong with it (nil: nothing).
    struct Manifest: Sendable, Equatable {
        let path: String
        let problem: String?
    }

    /// Where the Debian package puts the extension for Firefox ESR and Chromium (docs/install.md#debian-package).
    static let firefoxSystemExtension = "/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/dbmultiverse@nobadi.com"
    static let chromiumSystemExtension = "/usr/share/chromium/extensions/dbmultiverse"

    let reading: Reading

    init(_ reading: Reading) { self.reading = reading }

    static func read(_ browser: FoundBrowser, contacts: BrowserContacts, _ surroundings: Surroundings) -> Reading {
        let manifest = browser.kind.manifestPaths(surroundings).lazy.compactMap { path -> Manifest? in
            guard let bytes = Files.read(path) else {
                // A dangling link (a removed package's) is no manifest for the browser either.
                return Files.linkTarget(path).map { Manifest(path: path, problem: gettext("it is a link to %s, which cannot be read", $0)) }
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

    func result(_ surroundings: Surroundings) -> CheckResult {
        let kind = reading.browser.kind
        switch reading.browser.packaging {
        case .snap, .flatpak:
            let name = "browser \(kind.name) (\(reading.browser.packaging.rawValue))"
            let packaging = reading.browser.packaging.rawValue
            return reading.importsHistory
                // TRANSLATORS: doctor; %s is snap or flatpak (a browser packaged so).
                ? CheckResult(name, .ok, gettext("a %s cannot start the host; history import reads what you read there (import-history = yes: every sync imports it)", packaging))
                // TRANSLATORS: doctor; %s is snap or flatpak (a browser packaged so).
                : CheckResult(name, .unavailable, gettext("a %s cannot start the host; history import reads what you read there", packaging),
                              // TRANSLATORS: doctor: a command, then the line to add to the configuration file %s.
                              fix: gettext("dbmultiverse import-history (or import-history = yes in %s)", shellWord(surroundings.configPath)))
        case .native:
            break
        }
        let name = "browser \(kind.name)"
        guard let manifest = reading.manifest else {
            let folders = kind.manifestPaths(surroundings).prefix(2).map { surroundings.short(String($0.dropLast(HostManifest.fileName.count + 1))) }
            return CheckResult(name, .missing, folders.count == 2
                                   // TRANSLATORS: doctor: the browser's native messaging host file is in neither folder.
                                   ? gettext("no host manifest (in %s or %s)", folders[0], folders[1])
                                   : gettext("no host manifest (in %s)", folders.first ?? ""),
                               fix: ServiceCheck.installFix)
        }
        if let problem = manifest.problem {
            // TRANSLATORS: doctor: the manifest's path, then what is wrong with it.
            return CheckResult(name, .missing, gettext("host manifest %s ✗: %s", surroundings.short(manifest.path), problem),
                               // TRANSLATORS: doctor: a command, then how to install DBMultiverse.
                               fix: gettext("rm %s if you made it; then %s", shellWord(manifest.path), ServiceCheck.installFix))
        }
        let path = surroundings.short(manifest.path)
        let contact = reading.contacts.contacts[kind.family]
        if let contact, kind.contactNames.contains(contact.browser) {
            // TRANSLATORS: doctor: the manifest's path, then when ("3 min ago").
            return CheckResult(name, .ok, gettext("host manifest %s ✓, the extension last talked to the host %s", path, surroundings.relative(contact.at)))
        }
        guard let contact else {
            return CheckResult(name, .missing, gettext("host manifest %s ✓, the extension never talked to the host", path), fix: extensionFix)
        }
        // TRANSLATORS: doctor: the manifest's path; the browser family (firefox or chromium), the
        // browser of that family that last talked to the host, and when ("3 min ago").
        return CheckResult(name, .missing, gettext("host manifest %s ✓, the extension never talked to the host (the %s family's last contact: %s, %s)",
                                                   path, kind.family.rawValue, contact.browser, surroundings.relative(contact.at)),
                           fix: extensionFix)
    }

    /// What the user does in this browser so that the extension talks to the host (README,
    /// "Debian package" and "Reading in the browser").
    private var extensionFix: String {
        let kind = reading.browser.kind
        if let system = reading.systemExtension {
            return kind.family == .firefox
                // TRANSLATORS: doctor: the browser's name, the extension's folder. about:addons is an address.
                ? gettext("restart %s (it loads %s at its next start), check DBMultiverse Desktop is on in about:addons, then read a page of the comic", kind.title, system)
                // TRANSLATORS: doctor: the extension's folder. The second chromium is the command.
                : gettext("start Chromium as chromium (Debian's wrapper loads %s), then read a page of the comic", system)
        }
        // TRANSLATORS: doctor: where the browser extension is, in a sentence ("Load unpacked → the browser/ folder…").
        let folder = reading.unpackedExtension ?? gettext("the browser/ folder of the source")
        switch kind.name {
        case "firefox-esr":
            // TRANSLATORS: doctor: steps in Firefox; use Firefox's own labels in your language.
            return gettext("about:config: xpinstall.signatures.required = false, then about:addons → Install Add-on From File (make browser-extension builds the .xpi), then read a page of the comic")
        case "firefox":
            // TRANSLATORS: doctor: steps in Firefox (use its own labels in your language); %s is the extension's folder.
            return gettext("about:debugging → This Firefox → Load Temporary Add-on… → %s/manifest.json (until Firefox restarts), then read a page of the comic; or dbmultiverse import-history", folder)
        default:
            // TRANSLATORS: doctor: steps in a Chromium browser (use its own labels in your language): its extensions page, the extension's folder.
            return gettext("%s → Developer mode → Load unpacked → %s, then read a page of the comic", kind.extensionsPage, folder)
        }
    }
}

/// The browsers line when none is installed.
enum NoBrowserCheck {
    static var result: CheckResult {
        CheckResult("browsers", .unavailable, gettext("none of Firefox, Chromium, Google Chrome, Brave, Vivaldi or Edge found"),
                    fix: gettext("dbmultiverse import-history reads a browser's history from elsewhere"))
    }
}
