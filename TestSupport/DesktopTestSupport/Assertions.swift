import ComicDomain
package import DBus
package import Foundation
package import Testing

/// Expects `body` to fail with the D-Bus error `name` whose message contains every one of `texts`.
package func expectError<Reply>(_ name: String, containing texts: [String], sourceLocation: SourceLocation = #_sourceLocation,
                        _ body: () async throws -> Reply) async {
    do {
        let reply = try await body()
        Issue.record("expected \(name), got the reply \(reply)", sourceLocation: sourceLocation)
    } catch let error as DBusError {
        #expect(error.name == name, "message was: \(error.message)", sourceLocation: sourceLocation)
        for text in texts {
            #expect(error.message.contains(text), "message was: \(error.message)", sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("expected a DBusError, got \(error)", sourceLocation: sourceLocation)
    }
}

/// The full name of a contract error.
package func comicError(_ short: String) -> String { "com.nobadi.DBMultiverse.Error." + short }

/// The entry's keys (docs/dbus-api.md): the chapter, the new pages, what the view's actions open,
/// and the view.
package let entryKeys: Set<String> = [
    "chapter", "name", "progress", "image-path", "deep-link", "date", "family", "is-placeholder", "universe", "latest-page", "new-pages",
    "next-chapter", "first-unread-page", "next-chapter-name", "continued-on", "panel-text", "title", "progress-text", "new-pages-text", "actions",
    "state", "tooltip", "chapter-notification", "new-pages-notification", "revision",
]

package extension Dictionary where Key == String, Value == Variant {
    /// The value of `key`, which must be present with type `T`.
    func value<T: DBusArgument>(_ key: String, _ type: T.Type = T.self) throws -> T {
        guard let variant = self[key] else { throw EntryKeyMissing(key: key, keys: keys.sorted()) }
        return try variant.get(T.self)
    }
}

package struct EntryKeyMissing: Error, CustomStringConvertible {
    let key: String
    let keys: [String]
    package var description: String { "no '\(key)' in \(keys)" }
}

/// Expects an entry dictionary with exactly the contract's keys and these values (the deep link
/// the chapter's unless `deepLink` is given).
package func expectEntry(_ entry: [String: Variant], chapter: Int32, name: String, progress: Int32, imagePath: String = "",
                 family: String = "medium", placeholder: Bool = false, date: Int64? = nil,
                 universe: Int32 = 0, latestPage: Int32 = 0, newPages: Int32 = 0, deepLink: String? = nil,
                 sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(Set(entry.keys) == entryKeys, sourceLocation: sourceLocation)
    #expect(try entry.value("chapter", Int32.self) == chapter, sourceLocation: sourceLocation)
    #expect(try entry.value("name", String.self) == name, sourceLocation: sourceLocation)
    #expect(try entry.value("progress", Int32.self) == progress, sourceLocation: sourceLocation)
    #expect(try entry.value("image-path", String.self) == imagePath, sourceLocation: sourceLocation)
    #expect(try entry.value("deep-link", String.self) == deepLink ?? "dbmultiverse://chapter/\(chapter)", sourceLocation: sourceLocation)
    #expect(try entry.value("family", String.self) == family, sourceLocation: sourceLocation)
    #expect(try entry.value("is-placeholder", Bool.self) == placeholder, sourceLocation: sourceLocation)
    #expect(try entry.value("universe", Int32.self) == universe, sourceLocation: sourceLocation)
    #expect(try entry.value("latest-page", Int32.self) == latestPage, sourceLocation: sourceLocation)
    #expect(try entry.value("new-pages", Int32.self) == newPages, sourceLocation: sourceLocation)
    if let date { #expect(try entry.value("date", Int64.self) == date, sourceLocation: sourceLocation) }
    else { _ = try entry.value("date", Int64.self) }
}

/// Expects the placeholder entry of docs/dbus-api.md.
package func expectPlaceholder(_ entry: [String: Variant], family: String = "medium",
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
    try expectEntry(entry, chapter: 1, name: "A Really Strange Tournament!", progress: 0, family: family,
                    placeholder: true, sourceLocation: sourceLocation)
}

// MARK: Files

/// Writes `bytes` to `path` as another program would: a temporary file, then a rename. With an
/// `owner`, the file is that user's (the user a service runs as, when this process is root).
package func writeAtomically(_ bytes: Data, to path: String, owner: (uid: uid_t, gid: gid_t)? = nil) throws {
    let temporary = path + ".tmp-\(UUID().uuidString.prefix(6))"
    try bytes.write(to: URL(fileURLWithPath: temporary))
    if let owner, chown(temporary, owner.uid, owner.gid) != 0 {
        throw FixtureFileError("chown \(temporary) failed: errno \(errno)")
    }
    guard rename(temporary, path) == 0 else { throw FixtureFileError("rename to \(path) failed: errno \(errno)") }
}

/// A `currentChapterData.json` with the iOS app's keys.
package func chapterJSON(number: Int, name: String, progress: Int, coverImagePath: String = "", extra: String = "") -> Data {
    let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    return Data(#"{"number": \#(number), "name": "\#(escaped)", "progress": \#(progress), "coverImagePath": "\#(coverImagePath)"\#(extra)}"#.utf8)
}

/// What the service and the recorder stored in a data folder: its `snapshot` without the records
/// every request or host start rewrites (the site's politeness state, the browsers' last visits).
package func storedFiles(in folder: String) throws -> [String: String] {
    try snapshot(folder).filter { $0.key != DataFolder.siteRequestsFile && $0.key != DataFolder.browserContactsFile }
}

/// Every entry of a folder: file bytes, or a marker for directories and symlinks.
package func snapshot(_ folder: String) throws -> [String: String] {
    var result: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
        let path = folder + "/" + name
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        switch attributes[.type] as? FileAttributeType {
        case .typeDirectory?: result[name] = "<directory>"
        case .typeSymbolicLink?: result[name] = "<symlink to \(try FileManager.default.destinationOfSymbolicLink(atPath: path))>"
        default: result[name] = try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString()
        }
    }
    return result
}

/// The JSON object in a file, as a dictionary.
package func jsonObject(at path: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
        throw FixtureFileError("\(path) does not hold a JSON object")
    }
    return object
}

package struct FixtureFileError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Bytes that pass as a JPEG (by magic number).
package func jpegBytes(_ count: Int = 64) -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x42, count: max(0, count - 4)) }
/// Bytes that pass as a PNG.
package func pngBytes() -> [UInt8] { [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 7, count: 32) }
