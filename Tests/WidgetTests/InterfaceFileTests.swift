import DBus
import Foundation
import Testing
@testable import Widget

/// dbus/com.nobadi.DBMultiverse.Widget1.xml is what the Swift declaration writes (`make interface`):
/// the file kept in the repository, for the GNOME Shell card's build and for readers without Swift.
/// (That the running service introspects as it: ActivatedServiceTests.)
@Suite(.timeLimit(.minutes(1))) struct InterfaceFileTests {
    static let committedPath = "dbus/com.nobadi.DBMultiverse.Widget1.xml"

    @Test func theCommittedInterfaceFileIsTheOneTheDeclarationWrites() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let committed = try String(contentsOf: root.appendingPathComponent(Self.committedPath), encoding: .utf8)
        let written = Widget1.interfaceFile
        let (old, new) = (committed.split(separator: "\n", omittingEmptySubsequences: false),
                          written.split(separator: "\n", omittingEmptySubsequences: false))
        let line = zip(old, new).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(old.count, new.count)
        // Not `#expect(committed == written)`, which would print both files whole.
        guard committed != written else { return }
        Issue.record("""
            \(Self.committedPath) is not what Sources/Widget/Widget1.swift declares: run `make interface` and commit it.
            First difference, line \(line + 1):
              committed: \(line < old.count ? old[line] : "(end of file)")
              declared:  \(line < new.count ? new[line] : "(end of file)")
            """)
    }

    /// What the file's comment says comes from the Swift side: every error the domain sends under
    /// the widget's prefix, every key of the entry with its type and doc.
    @Test func theCommentDescribesEveryErrorAndEveryKey() {
        let comment = Widget1.fileComment.replacingOccurrences(of: "\n", with: " ")
        #expect(comment.contains("NoCurrentChapter, StorageFailed, InvalidLanguage, InvalidPage}"), "\(comment)")
        #expect(!comment.contains("InvalidOption"), "invalidOption travels as InvalidArgs")
        for key in EntryKeys.all {
            #expect(!key.doc.isEmpty && comment.contains(" \(key.name) (\(key.signature.rawValue): \(key.doc))"), "\(key.name)")
        }
        #expect(comment.contains("state (s: what a face is styled by: placeholder, reading, finished, new-pages)"), "\(comment)")
        #expect(!comment.contains("--"), "an XML comment cannot hold '--'")
    }
}
