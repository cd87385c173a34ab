import DBusTestSupport
import DesktopTestSupport
import Foundation
import Testing
import TestingTraits

/// The widget's interface is declared once, in Swift; dbus/com.nobadi.DBMultiverse.Widget1.xml is
/// written from it (WidgetTests' InterfaceFileTests holds the file to it), and the desktop's faces
/// hold no copy written by hand: the GNOME Shell card's is put in by its build.sh from the file,
/// the Plasma widget reads the command line's JSON.
@Suite(.timeLimit(.minutes(10)), .offThePool) struct InterfaceDeclarationTests {
    static let interfaceFile = repositoryRoot.appendingPathComponent("dbus/com.nobadi.DBMultiverse.Widget1.xml")

    /// `<interface name="…Widget1"` and each member's `<method|property|signal name="…"`, as the
    /// file declares them (any spacing and quotes).
    static func declarations() throws -> [NSRegularExpression] {
        let xml = try String(contentsOf: interfaceFile, encoding: .utf8)
        let member = try NSRegularExpression(pattern: #"<(interface|method|property|signal) name="([^"]+)""#)
        let found = member.matches(in: xml, range: NSRange(xml.startIndex..., in: xml)).map { match in
            (Range(match.range(at: 1), in: xml).map { xml[$0] } ?? "", Range(match.range(at: 2), in: xml).map { xml[$0] } ?? "")
        }
        return try found.map { kind, name in
            try NSRegularExpression(pattern: #"<\s*\#(kind)\s+name\s*=\s*["']\#(NSRegularExpression.escapedPattern(for: String(name)))["']"#)
        }
    }

    @Test func noFileUnderDesktopHoldsACopyOfTheInterface() throws {
        let patterns = try Self.declarations()
        #expect(patterns.count == 1 + 9 + 10 + 2, "the interface, its methods, properties and signals: \(patterns.count)")
        let desktop = repositoryRoot.appendingPathComponent("desktop")
        let files = try #require(FileManager.default.enumerator(at: desktop, includingPropertiesForKeys: [.isRegularFileKey]))
        var copies: [String] = [], read = 0
        for case let url as URL in files where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            read += 1
            let range = NSRange(text.startIndex..., in: text)
            for pattern in patterns where pattern.firstMatch(in: text, range: range) != nil {
                copies.append("\(url.path.dropFirst(repositoryRoot.path.count + 1)): \(pattern.pattern)")
            }
        }
        #expect(read > 20, "read only \(read) files under desktop/")
        #expect(copies.isEmpty, """
            a copy of com.nobadi.DBMultiverse.Widget1 written by hand (take it from \(Self.interfaceFile.lastPathComponent) \
            at build time, as desktop/gnome-shell/build.sh does):
            \(copies.joined(separator: "\n"))
            """)
    }

    /// Each build of the GNOME Shell card carries the interface file's `<node>` as it is.
    @Test func theGnomeShellCardsBuildsCarryTheInterfaceFile() throws {
        let xml = try String(contentsOf: Self.interfaceFile, encoding: .utf8)
        let node = try #require(xml.range(of: "<node>\n").map { xml[$0.lowerBound...] })
        let folder = try makeTemporaryDirectory("dbm-gnome-interface")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for build in ["43", "45"] {
            let result = try runCommand([repositoryRoot.appendingPathComponent("desktop/gnome-shell/build.sh").path, build, folder + "/" + build])
            try #require(result.status == 0, "\(result)")
            let client = try String(contentsOfFile: folder + "/" + build + "/widgetClient.js", encoding: .utf8)
            // As a JavaScript template literal: \, ` and $ escaped.
            var literal = ""
            for character in node.dropLast() { literal += "\\`$".contains(character) ? "\\\(character)" : String(character) }
            #expect(client.contains("const WIDGET_XML = `" + literal + "`;\n"), "\(build): \(client.prefix(1200))")
            #expect(!client.contains("@WIDGET_XML@"), "\(build)")
        }
    }
}
