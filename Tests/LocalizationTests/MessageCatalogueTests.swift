import Foundation
@testable import Localization
import Testing

/// The catalogue check (issue 39, defect 2: a truncated French catalogue crashed every process in
/// glibc's `_nl_find_msg`): the catalogues msgfmt makes pass, and every truncation and each kind of
/// damage glibc would trip over is refused, with the reason.
@Suite(.timeLimit(.minutes(1))) struct MessageCatalogueTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// `po/<language>.po` compiled by msgfmt (with `options`).
    static func compiled(_ language: String, _ options: [String] = []) throws -> [UInt8] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-\(UUID().uuidString).mo").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let msgfmt = Process()
        msgfmt.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        msgfmt.arguments = options + ["-o", output, "\(repository)/po/\(language).po"]
        try msgfmt.run()
        msgfmt.waitUntilExit()
        try #require(msgfmt.terminationStatus == 0, "msgfmt \(language)")
        return Array(try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    static func problem(_ bytes: [UInt8]) -> String? { bytes.withUnsafeBytes { MessageCatalogue.problem($0) } }

    /// The catalogue with the 32-bit word at `offset` (little-endian, as msgfmt writes here) replaced.
    static func with(_ bytes: [UInt8], word value: UInt32, at offset: Int) -> [UInt8] {
        var bytes = bytes
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + 4, with: $0) }
        return bytes
    }

    static func word(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self) })
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt")))
    func theCataloguesMsgfmtMakesPass() throws {
        for language in ["fr", "it", "es", "pt_BR", "pl", "de"] {
            #expect(Self.problem(try Self.compiled(language)) == nil, "\(language)")
        }
        #expect(Self.problem(try Self.compiled("pl", ["--endianness=big"])) == nil, "big-endian")
        #expect(Self.problem(try Self.compiled("fr", ["--no-hash"])) == nil, "without a hash table")
    }

    /// `head -c N` of the French catalogue: none is read (every N up to just past its tables, then
    /// every 97th and the last 64).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt")))
    func everyTruncationIsRefused() throws {
        let french = try Self.compiled("fr")
        // msgfmt writes the header, the two string tables, the hash table, then the strings.
        let tablesEnd = max(Self.word(french, 12), Self.word(french, 16)) + 8 * Self.word(french, 8)
        let stringsStart = max(tablesEnd, Self.word(french, 24) + 4 * Self.word(french, 20))
        for length in Array(0...stringsStart) + Array(stride(from: stringsStart, to: french.count, by: 97))
            + Array(french.count - 64..<french.count) {
            #expect(Self.problem(Array(french.prefix(length))) != nil, "\(length) bytes")
        }
        // Cut one byte into the strings: the tables fit, a string does not end.
        #expect(Self.problem(Array(french.prefix(stringsStart + 1)))?.hasSuffix("does not end inside its \(stringsStart + 1) bytes") == true)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/msgfmt")))
    func damageGlibcWouldTripOverIsRefused() throws {
        let french = try Self.compiled("fr")
        let (count, originals, translations, hashSize, hashOffset) =
            (Self.word(french, 8), Self.word(french, 12), Self.word(french, 16), Self.word(french, 20), Self.word(french, 24))
        let cases: [(String, [UInt8], String)] = [
            ("magic", Self.with(french, word: 0x1234_5678, at: 0), "no .mo magic number"),
            ("revision 1", Self.with(french, word: 1, at: 4), "revision 1, not 0"),
            ("too many strings", Self.with(french, word: UInt32(count + 100_000), at: 8), "does not fit"),
            ("a table past the end", Self.with(french, word: UInt32(french.count), at: 16), "translation table"),
            ("a string past the end", Self.with(french, word: 0x7fff_fff0, at: originals + 12), "original string 1"),
            ("a string without its NUL", Self.with(french, word: UInt32(Self.word(french, translations + 8) + 1), at: translations + 8),
             "translation string 1"),
            ("a hash slot naming no string", Self.with(french, word: UInt32(count + 1), at: hashOffset), "hash slot 0"),
            ("a hash table past the end", Self.with(french, word: UInt32(french.count), at: 24), "hash table"),
            ("a hash size that is not prime", Self.with(french, word: UInt32(hashSize - 1), at: 20), "never ends"),
        ]
        for (what, bytes, reason) in cases {
            let problem = Self.problem(bytes)
            #expect(problem?.contains(reason) == true, "\(what): \(problem ?? "passed")")
        }
        // Every slot taken: a lookup of a message not in the catalogue never ends.
        var full = french
        for slot in 0..<hashSize where Self.word(full, hashOffset + 4 * slot) == 0 {
            full = Self.with(full, word: 1, at: hashOffset + 4 * slot)
        }
        #expect(Self.problem(full)?.contains("never ends") == true)
    }

    /// The header's charset goes onto glibc's stack and its plural expression is evaluated: both
    /// are read as glibc reads them.
    @Test func theHeaderIsReadAsGlibcReadsIt() {
        func problem(_ header: String) -> String? { MessageCatalogue.headerProblem(Array(header.utf8)) }
        let polish = "Content-Type: text/plain; charset=UTF-8\nPlural-Forms: nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\n"
        #expect(problem(polish) == nil)
        #expect(problem("Plural-Forms: nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;") == nil)
        #expect(problem("Plural-Forms: nplurals=2; plural=!(n != 1);") == nil)
        #expect(problem("Plural-Forms: nplurals=1; plural=0;") == nil)
        #expect(problem("no plural, no charset") == nil)
        for (header, reason) in [
            ("nplurals=2; plural=n/0;", "divisor"), ("nplurals=2; plural=n%(n-1);", "divisor"),
            ("nplurals=2; plural=n%18446744073709551616;", "divisor"), ("nplurals=2; plural=n % (10);", nil),
            ("nplurals=2; plural=n = 1;", "lone ="), ("nplurals=2; plural=n & 1;", "lone &"), ("nplurals=2; plural=(n;", "without its )"),
            ("nplurals=2; plural=n ? 1;", "without its :"), ("nplurals=2; plural=n 1;", "after the expression"),
            ("nplurals=2; plural=-n;", "operand"), ("nplurals=2; plural=\(String(repeating: "(", count: 100))n\(String(repeating: ")", count: 100));", "nested"),
            ("nplurals=2; plural=\(String(repeating: "!", count: 100))n;", "nested"),
            ("charset=ISO-8859-1\n", "charset ISO-8859-1"), ("charset=\(String(repeating: "x", count: 10_000))\n", "not UTF-8"),
        ] as [(String, String?)] {
            let found = problem(header)
            if let reason {
                #expect(found?.contains(reason) == true, "\(header.prefix(60)): \(found ?? "passed")")
            } else {
                #expect(found == nil, "\(header)")
            }
        }
    }

    @Test func pluralExpressionsEvaluateAsC() throws {
        var parser = PluralExpression(Array("(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)".utf8)[...])
        let polish = try parser.parse()
        #expect([1, 2, 5, 12, 22, 25, 112].map { polish.value($0) } == [0, 1, 2, 2, 1, 2, 2])
        var precedence = PluralExpression(Array("!n == 0 + 1 * 2".utf8)[...])
        #expect(try precedence.parse().value(0) == 0) // (!n) == (0 + (1 * 2)): 1 == 2
    }

    /// The names glibc tries for a locale, the codeset also normalised, and an alias's.
    @Test func theCandidatesAreTheNamesGlibcTries() {
        let variants = MessageCatalogue.variants(of: "fr_FR.UTF-8@euro")
        for name in ["fr_FR.UTF-8@euro", "fr_FR.utf8", "fr_FR", "fr.UTF-8", "fr@euro", "fr"] {
            #expect(variants.contains(name), "\(name) in \(variants)")
        }
        #expect(MessageCatalogue.variants(of: "de_DE.8859-1").contains("de_DE.iso88591"))
        #expect(MessageCatalogue.variants(of: "../../etc").isEmpty)
        let files = MessageCatalogue.candidates(directory: "/l", domain: "d", languages: ["french"], aliases: ["french": "fr_FR.ISO-8859-1"])
        #expect(files.first == "/l/french/LC_MESSAGES/d.mo" && files.contains("/l/fr/LC_MESSAGES/d.mo"), "\(files)")
        // Debian's alias file, when there is one, is read as glibc reads it.
        if FileManager.default.fileExists(atPath: "/usr/share/locale/locale.alias") {
            #expect(MessageCatalogue.aliases()["french"]?.hasPrefix("fr_FR") == true)
        }
    }

    /// A FIFO in a catalogue's place (gettext would block on it) is refused without blocking; a
    /// missing file is no problem.
    @Test func aCatalogueThatIsNoRegularFileIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/d.mo", 0o600) == 0)
        #expect(MessageCatalogue.problem(path: folder + "/d.mo") == "not a regular file")
        #expect(MessageCatalogue.problem(path: folder + "/missing.mo") == nil)
        #expect(MessageCatalogue.problem(path: folder) == "not a regular file")
    }

    /// One rule for the session's languages (issue 39, defect 6): gettext's. C and POSIX — as
    /// written or because the system lacks the locale — are English and LANGUAGE is ignored;
    /// C.UTF-8 is not C for gettext.
    @Test func theSessionLanguagesAreGettexts() {
        func languages(_ environment: [String: String]) -> [String] { Localization.sessionLanguages(environment: environment) }
        #expect(languages(["LC_ALL": "C", "LANGUAGE": "fr"]) == [])
        #expect(languages(["LANG": "POSIX", "LANGUAGE": "fr"]) == [])
        #expect(languages(["LANGUAGE": "fr"]) == [], "no locale is C")
        #expect(languages(["LANG": "xx_NOWHERE.UTF-8", "LANGUAGE": "fr"]) == [], "a locale the system lacks is C")
        #expect(languages(["LANG": "C.UTF-8", "LANGUAGE": "fr:de"]) == ["fr", "de"])
        #expect(languages(["LANG": "C.UTF-8", "LANGUAGE": "de::C:fr"]) == ["de"], "gettext stops at C")
        #expect(languages(["LC_ALL": "", "LANG": "C.UTF-8", "LANGUAGE": ""]) == ["C.UTF-8"])
        #expect(languages(["LC_ALL": "C", "LANG": "C.UTF-8", "LANGUAGE": "fr"]) == [], "LC_ALL wins")
    }
}
