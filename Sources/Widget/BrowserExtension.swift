/// The DBMultiverse WebExtension (`browser/`) as the browsers know it, and its native messaging host.
package enum BrowserExtension {
    /// The host's name: `name` in its manifests, the target of the extension's `sendNativeMessage`.
    package static let hostName = "com.nobadi.dbmultiverse"
    /// Firefox's id for the extension (`browser_specific_settings.gecko.id`).
    package static let firefoxID = "dbmultiverse@nobadi.com"
    /// The Chromium family's id for the extension, fixed by the public key in the manifest's `key`
    /// (the first 32 hex digits of the key's SHA-256, written with the letters a…p).
    package static let chromiumID = "ggedickjhdkhcjapnhgdobjneiagnckh"
    /// The origin Chromium-family browsers pass the host.
    package static let chromiumOrigin = "chrome-extension://\(chromiumID)/"
}
