internal import JSON
internal import Widget

/// A native messaging host manifest of ours (`com.nobadi.dbmultiverse.json`), checked as a browser
/// reads it: JSON naming our host, a stdio host at an absolute path that is an executable, and our
/// extension allowed.
package enum HostManifest {
    package static let fileName = BrowserExtension.hostName + ".json"

    /// Nil when `bytes` is a manifest that works for `family`, else what is wrong.
    package static func problem(in bytes: [UInt8], family: BrowserFamily) -> String? {
        guard let manifest = try? JSONValue.parse(bytes), case .object = manifest else { return "not a JSON object" }
        guard case .string(BrowserExtension.hostName)? = manifest["name"] else { return "its name is not \(BrowserExtension.hostName)" }
        guard case .string("stdio")? = manifest["type"] else { return "its type is not stdio" }
        guard case .string(let path)? = manifest["path"], path.hasPrefix("/") else { return "its path is not absolute" }
        guard Files.isExecutable(path) else { return "its path \(path) is no executable" }
        let (key, allowed) = switch family {
        case .firefox: ("allowed_extensions", BrowserExtension.firefoxID)
        case .chromium: ("allowed_origins", BrowserExtension.chromiumOrigin)
        }
        guard case .array(let entries)? = manifest[key], entries.contains(.string(allowed)) else { return "its \(key) lacks \(allowed)" }
        return nil
    }
}

/// The two families of browsers the extension is built for; the keys of `browserContacts.json`.
package enum BrowserFamily: String, Sendable, Equatable {
    case firefox, chromium
}

/// `browserContacts.json` in the data folder: when the extension last started the host, per
/// family — `{"firefox": {"at": <Unix seconds>, "browser": "firefox-esr"}, "chromium": {…}}`,
/// written by the browser host at each start. Missing or corrupt means never; unknown keys are ignored.
package struct BrowserContacts: Sendable, Equatable {
    package static let fileName = "browserContacts.json"

    package struct Contact: Sendable, Equatable {
        package let at: Int64
        /// The executable name of the browser that started the host (`firefox-esr`, `chrome`, …).
        package let browser: String

        package init(at: Int64, browser: String) {
            self.at = at
            self.browser = browser
        }
    }

    package let contacts: [BrowserFamily: Contact]

    package init(contacts: [BrowserFamily: Contact]) { self.contacts = contacts }

    package init(bytes: [UInt8]?) {
        var contacts: [BrowserFamily: Contact] = [:]
        if let bytes, let value = try? JSONValue.parse(bytes) {
            for family in [BrowserFamily.firefox, .chromium] {
                guard let entry = value[family.rawValue], case .number(let lexeme)? = entry["at"],
                      case .integer(let at) = JSONValue.integer(fromLexeme: lexeme), case .string(let browser)? = entry["browser"]
                else { continue }
                contacts[family] = Contact(at: Int64(at), browser: browser)
            }
        }
        self.contacts = contacts
    }
}
