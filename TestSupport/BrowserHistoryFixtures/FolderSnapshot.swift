package import Foundation

/// Every file below a folder with its bytes, size and modification time: taken before and after
/// a lookup, equal snapshots prove nothing was written, added or removed next to the browsers'
/// files. (The bytes themselves are compared, which a hash would only stand for.)
package struct FolderSnapshot: Equatable, Sendable {
    package struct Entry: Equatable, Sendable {
        package let bytes: Data
        package let modified: Date?
    }

    package let folder: String
    package let entries: [String: Entry]

    package init(of folder: String) throws {
        self.folder = folder
        var entries: [String: Entry] = [:]
        let manager = FileManager.default
        for path in try manager.subpathsOfDirectory(atPath: folder).sorted() {
            let full = folder + "/" + path
            let attributes = try manager.attributesOfItem(atPath: full)
            let type = attributes[.type] as? FileAttributeType
            // An empty file is not read: Data(contentsOf:) leaks its 4 KiB buffer on one (LSan).
            let isEmpty = (attributes[.size] as? NSNumber)?.intValue == 0
            let bytes = type == .typeRegular && !isEmpty ? try Data(contentsOf: URL(fileURLWithPath: full)) : Data()
            entries[path] = Entry(bytes: bytes, modified: attributes[.modificationDate] as? Date)
        }
        self.entries = entries
    }

    /// What differs from `earlier`, one line a file; empty when nothing does.
    package func differences(from earlier: FolderSnapshot) -> [String] {
        var lines: [String] = []
        for path in Set(entries.keys).union(earlier.entries.keys).sorted() {
            switch (earlier.entries[path], entries[path]) {
            case (nil, _?): lines.append("new file \(path)")
            case (_?, nil): lines.append("removed \(path)")
            case let (before?, after?) where before != after:
                lines.append("changed \(path) (\(before.bytes.count) → \(after.bytes.count) bytes)")
            default: break
            }
        }
        return lines
    }

    /// The files, for a test's message.
    package var fileNames: [String] { entries.keys.sorted() }
}
