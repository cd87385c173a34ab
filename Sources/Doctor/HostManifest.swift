import ComicDomain
import JSON
import Widget
import Localization

/// A native messaging host manifest of ours (`com.nobadi.dbmultiverse.json`), checked as a browser
/// reads it: JSON naming our host, a stdio host at an absolute path that is an executable, and our
/// extension allowed.
enum HostManifest {
    static let fileName = BrowserExtension.hostName + ".json"

    /// Nil when `bytes` is a manifest that works for `family`, else what is wrong.
    static func problem(in bytes: [UInt8], family: BrowserContacts.Family) -> String? {
        // The browser takes it as a JSON object or not at all: where the parse stopped does not matter.
        guard let manifest = try? JSONValue.parse(bytes), case .object = manifest else { return gettext("not a JSON object") }
        guard case .string(BrowserExtension.hostName)? = manifest["name"] else { return gettext("its name is not %s", BrowserExtension.hostName) }
        guard case .string("stdio")? = manifest["type"] else { return gettext("its type is not stdio") }
        guard case .string(let path)? = manifest["path"], path.hasPrefix("/") else { return gettext("its path is not absolute") }
        guard Files.isExecutable(path) else { return gettext("its path %s is no executable", path) }
        let (key, allowed) = switch family {
        case .firefox: ("allowed_extensions", BrowserExtension.firefoxID)
        case .chromium: ("allowed_origins", BrowserExtension.chromiumOrigin)
        }
        guard case .array(let entries)? = manifest[key], entries.contains(.string(allowed)) else { // TRANSLATORS: doctor: a manifest's key (allowed_origins…) lacks our extension's id.
            return gettext("its %s lacks %s", key, allowed) }
        return nil
    }
}
