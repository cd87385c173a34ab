@testable import ComicDomain
import Testing

@Suite("Chapter data and sync state files", .timeLimit(.minutes(1)))
struct ChapterDataTests {
    private func decode(_ text: String) throws(ComicError) -> ChapterData {
        try ChapterData.decode(Array(text.utf8))
    }

    private func decodeError(_ text: String) -> ComicError? {
        thrownError { () throws(ComicError) in try decode(text) }
    }

    // MARK: Validating initializer

    @Test func validDataKeepsItsValues() throws {
        let data = try ChapterData(
            validatingNumber: 42, name: "  The Battle Begins!\n", progress: 35,
            coverImagePath: "chapterCoverImage.jpg", page: 980, language: "fr")
        #expect(data.number == 42)
        #expect(data.name == "The Battle Begins!")
        #expect(data.progress == 35)
        #expect(data.coverImagePath == "chapterCoverImage.jpg")
        #expect(data.page == 980)
        #expect(data.language == "fr")
        #expect(data.syncState() == SyncState(chapter: 42, progress: 35))
    }

    @Test(arguments: [
        (0, "chapter 0 is out of range 1…99999"),
        (-1, "chapter -1 is out of range 1…99999"),
        (100_000, "chapter 100000 is out of range 1…99999"),
        (Int.min, "chapter \(Int.min) is out of range 1…99999"),
    ])
    func rejectsChaptersOutOfRange(chapter: Int, message: String) {
        let error = thrownError { () throws(ComicError) in try ChapterData(validatingNumber: chapter, name: "x", progress: 0) }
        #expect(error == ComicError(.invalidChapter, message))
    }

    @Test func chapterBoundsAreInclusive() throws {
        #expect(try ChapterData(validatingNumber: 1, name: "x", progress: 0).number == 1)
        #expect(try ChapterData(validatingNumber: 99999, name: "x", progress: 100).progress == 100)
    }

    @Test(arguments: [-1, 101, Int.max])
    func rejectsProgressOutOfRange(progress: Int) {
        let error = thrownError { () throws(ComicError) in try ChapterData(validatingNumber: 1, name: "x", progress: progress) }
        #expect(error == ComicError(.invalidProgress, "progress \(progress) is out of range 0…100"))
    }

    @Test(arguments: ["", " ", "\n\t \r\n", "\u{00A0}\u{3000}"])
    func rejectsBlankNames(name: String) {
        let error = thrownError { () throws(ComicError) in try ChapterData(validatingNumber: 1, name: name, progress: 0) }
        #expect(error?.kind == .invalidName)
        #expect(error?.message.contains("blank") == true)
        #expect(error?.message.contains("1…256") == true)
    }

    @Test func nameLengthCountsCharactersAfterTrimming() throws {
        let longest = String(repeating: "é", count: 256)
        #expect(try ChapterData(validatingNumber: 1, name: "  " + longest + "\n", progress: 0).name == longest)
        let flags = String(repeating: "🇯🇵", count: 256)  // one character, many bytes each
        #expect(try ChapterData(validatingNumber: 1, name: flags, progress: 0).name == flags)
        let error = thrownError { () throws(ComicError) in try ChapterData(validatingNumber: 1, name: longest + "x", progress: 0) }
        #expect(error == ComicError(.invalidName, "name is 257 characters long, more than 256"))
    }

    /// Issue 30, defect 1: one character can carry any number of combining marks, so the
    /// character count alone let an 80 KB name through (and the file written could not be read
    /// back). Names are bounded in UTF-8 bytes and in Unicode scalars too, on every path that
    /// validates one (stored chapters, the catalogue's chapters).
    @Test func nameLengthIsBoundedInBytesAndScalars() throws {
        let huge = "a" + String(repeating: "\u{0301}", count: 40_000)
        #expect(huge.count == 1)
        #expect(thrownError { () throws(ComicError) in try ChapterData(validatingNumber: 1, name: huge, progress: 0) }
            == ComicError(.invalidName, "name is 80001 bytes long in UTF-8, more than 4096"))
        let marks = "a" + String(repeating: "\u{0301}", count: 1100)  // 2 201 bytes
        #expect(thrownError { () throws(ComicError) in try ChapterData(validatingNumber: 1, name: marks, progress: 0) }
            == ComicError(.invalidName, "name has 1101 Unicode scalars, more than 1024"))
        let decoded = thrownError { () throws(ComicError) in
            try ChapterData.decode(Array(#"{"number":1,"name":"\#(marks)","progress":0}"#.utf8))
        }
        #expect(decoded?.kind == .invalidName)
        let chapter = thrownError { () throws(ComicError) in
            try Catalogue.Chapter(number: 1, name: marks, startPage: 1, endPage: 2, universe: nil, thumbnailURL: "")
        }
        #expect(chapter?.kind == .invalidName)
        let largest = "a" + String(repeating: "\u{0301}", count: 1023)
        #expect(try ChapterData(validatingNumber: 1, name: largest, progress: 0).name == largest)
    }

    @Test func rejectsNULInNames() {
        let error = thrownError { () throws(ComicError) in try ChapterData(validatingNumber: 1, name: "a\u{0}b", progress: 0) }
        #expect(error?.kind == .invalidName)
    }

    @Test func validatesOptions() {
        let page = thrownError { () throws(ComicError) in try ChapterData(validatingNumber: 1, name: "x", progress: 0, page: 0) }
        #expect(page == ComicError(.invalidOption, "page 0 is out of range 1…99999"))
        let language = thrownError { () throws(ComicError) in try ChapterData(validatingNumber: 1, name: "x", progress: 0, language: "../en") }
        #expect(language?.kind == .invalidOption)
        #expect(language?.message.contains(#""../en""#) == true)
    }

    @Test func reportsTheFirstBrokenRuleInContractOrder() {
        func kind(_ number: Int, _ name: String, _ progress: Int, _ page: Int?) -> ComicError.Kind? {
            thrownError { () throws(ComicError) in
                try ChapterData(validatingNumber: number, name: name, progress: progress, page: page)
            }?.kind
        }
        #expect(kind(0, "", -1, 0) == .invalidChapter)
        #expect(kind(1, "", -1, 0) == .invalidName)
        #expect(kind(1, "x", -1, 0) == .invalidProgress)
        #expect(kind(1, "x", 0, 0) == .invalidOption)
        #expect(kind(1, "x", 0, 1) == nil)
    }

    @Test func updatingProgressKeepsEverythingElse() throws {
        let data = try ChapterData(validatingNumber: 7, name: "n", progress: 10, coverImagePath: "c.jpg", page: 3, language: "es")
        let updated = try data.updatingProgress(60)
        #expect(updated == (try ChapterData(validatingNumber: 7, name: "n", progress: 60, coverImagePath: "c.jpg", page: 3, language: "es")))
        #expect(thrownError { () throws(ComicError) in try data.updatingProgress(101) }?.kind == .invalidProgress)
    }

    // MARK: Decoding

    @Test func decodesTheIOSAppFormat() throws {
        let data = try decode(#"{"number":42,"name":"Goku vs. Goku","progress":35,"coverImagePath":"/var/mobile/x/chapterCoverImage.jpg"}"#)
        #expect(data == (try ChapterData(validatingNumber: 42, name: "Goku vs. Goku", progress: 35, coverImagePath: "/var/mobile/x/chapterCoverImage.jpg")))
        #expect(data.page == nil && data.language == nil)
    }

    @Test func ignoresUnknownKeysAndToleratesAMissingCover() throws {
        let data = try decode(#"{"future": {"x": [1, 2]}, "number": 3, "name": "n", "progress": 0, "page": 12, "language": "it", "flag": true}"#)
        #expect(data.coverImagePath == "")
        #expect(data.page == 12)
        #expect(data.language == "it")
    }

    /// A language this version does not know (a later one's, another writer's) keeps the position
    /// (issue 39, defect 5: the whole file was refused): read without it, written back as it was.
    @Test func readsALanguageItDoesNotKnowWithoutIt() throws {
        for written in ["xx_NEW", "e n"] {
            let data = try decode(#"{"number":1,"name":"n","progress":1,"language":"\#(written)"}"#)
            #expect(data.number == 1 && data.language == nil && data.unknownLanguage == written && data.siteLanguage == nil)
            #expect(try decode(String(decoding: data.encodeJSON(), as: UTF8.self)) == data)
            #expect(try data.updatingProgress(50).unknownLanguage == written)
        }
    }

    @Test func treatsNullOptionalsAsAbsent() throws {
        let data = try decode(#"{"number": 3, "name": "n", "progress": 0, "coverImagePath": null, "page": null, "language": null}"#)
        #expect(data.coverImagePath == "" && data.page == nil && data.language == nil)
    }

    @Test func decodingReportsTheFirstBrokenRuleInContractOrder() {
        #expect(decodeError(#"{"number":0,"name":" ","progress":101,"page":0}"#)?.kind == .invalidChapter)
        #expect(decodeError(#"{"number":1,"name":" ","progress":101,"page":0}"#)?.kind == .invalidName)
        #expect(decodeError(#"{"number":1,"name":"n","progress":101,"page":0}"#)?.kind == .invalidProgress)
        #expect(decodeError(#"{"number":1,"name":"n","progress":100,"page":0}"#)?.kind == .invalidOption)
    }

    @Test func lastDuplicateKeyWins() throws {
        #expect(try decode(#"{"number": 3, "name": "n", "progress": 0, "number": 4}"#).number == 4)
    }

    @Test(arguments: [
        (#"{"name":"n","progress":0}"#, ComicError.Kind.storageFailed, #"missing key "number""#),
        (#"{"number":1,"progress":0}"#, .storageFailed, #"missing key "name""#),
        (#"{"number":1,"name":"n"}"#, .storageFailed, #"missing key "progress""#),
        (#"{"number":"1","name":"n","progress":0}"#, .storageFailed, #"key "number" must be an integer, found a string"#),
        (#"{"number":1,"name":2,"progress":0}"#, .storageFailed, #"key "name" must be a string, found the number 2"#),
        (#"{"number":1,"name":"n","progress":35.5}"#, .storageFailed, #"key "progress" must be an integer, found the number 35.5"#),
        (#"{"number":1,"name":"n","progress":35.0}"#, .storageFailed, #"key "progress" must be an integer, found the number 35.0"#),
        (#"{"number":1e1,"name":"n","progress":0}"#, .storageFailed, #"key "number" must be an integer, found the number 1e1"#),
        (#"{"number":null,"name":"n","progress":0}"#, .storageFailed, #"key "number" must be an integer, found null"#),
        (#"{"number":1,"name":"n","progress":0,"coverImagePath":5}"#, .storageFailed, #"key "coverImagePath" must be a string, found the number 5"#),
        (#"{"number":1,"name":"n","progress":0,"page":"3"}"#, .storageFailed, #"key "page" must be an integer, found a string"#),
        (#"{"number":1,"name":"n","progress":0,"language":["en"]}"#, .storageFailed, #"key "language" must be a string, found an array"#),
        (#"{"number":0,"name":"n","progress":0}"#, .invalidChapter, "chapter 0 is out of range 1…99999"),
        (#"{"number":99999999999999999999999,"name":"n","progress":0}"#, .invalidChapter, "chapter 99999999999999999999999 is out of range 1…99999"),
        (#"{"number":-99999999999999999999999,"name":"n","progress":0}"#, .invalidChapter, "chapter -99999999999999999999999 is out of range 1…99999"),
        (#"{"number":1,"name":"n","progress":101}"#, .invalidProgress, "progress 101 is out of range 0…100"),
        (#"{"number":1,"name":"   ","progress":1}"#, .invalidName, "blank"),
        (#"{"number":1,"name":"n","progress":1,"page":0}"#, .invalidOption, "page 0 is out of range 1…99999"),
        (#"[1, 2]"#, .storageFailed, "expected a JSON object at the top level, found an array"),
        (#""text""#, .storageFailed, "found a string"),
        (#"{"number":1,"name":"n","progress":1"#, .storageFailed, "malformed JSON at byte 35: unterminated object"),
        (#"{"number":1,"name":"n","progress":1}}"#, .storageFailed, "malformed JSON at byte 36"),
        ("", .storageFailed, "malformed JSON at byte 0: expected a value, found end of input"),
    ])
    func reportsPreciseDecodingErrors(text: String, kind: ComicError.Kind, message: String) {
        let error = decodeError(text)
        #expect(error?.kind == kind, "\(text)")
        #expect(error?.message.contains(message) == true, "\(text): \(String(describing: error))")
    }

    @Test func rejectsInvalidUTF8() {
        let bytes: [UInt8] = Array(#"{"number":1,"name":""#.utf8) + [0xC3, 0x28] + Array(#"","progress":1}"#.utf8)
        let error = thrownError { () throws(ComicError) in try ChapterData.decode(bytes) }
        #expect(error?.kind == .storageFailed)
        #expect(error?.message == "not valid UTF-8 at byte 21: unexpected byte 0x28 in a character")
    }

    @Test func rejectsOversizedContentBeforeParsing() {
        let padding = String(repeating: " ", count: Limits.maxChapterFileBytes)
        let error = decodeError(#"{"number":1,"name":"n","progress":1}"# + padding)
        #expect(error == ComicError(.storageFailed, "content is 65572 bytes, more than 65536"))
        // Exactly at the limit is fine.
        let exact = #"{"number":1,"name":"n","progress":1}"#
        let fitted = exact + String(repeating: " ", count: Limits.maxChapterFileBytes - exact.utf8.count)
        #expect(decodeError(fitted) == nil)
    }

    // MARK: Encoding

    @Test(arguments: [
        "Goku",
        #"He said "Kamehameha!" \ then left"#,
        "Line one\nline two\ttab\r\u{1}\u{1F}\u{7F}",
        "Vegeta 🥦 ベジータ 🇯🇵 é\u{301}",
        "</script><b>&amp;</b>",
        "\u{2028}\u{2029}\u{FEFF}",
    ])
    func roundTripsThroughJSON(name: String) throws {
        let data = try ChapterData(validatingNumber: 99999, name: name, progress: 100, coverImagePath: "/a \"b\"/c\\d.jpg", page: 1, language: "pt_BR")
        let bytes = data.encodeJSON()
        #expect(try ChapterData.decode(bytes) == data)
        #expect(!bytes.contains(where: { $0 < 0x20 }), "control characters must be escaped")
    }

    @Test func encodesWithAStableKeyOrder() throws {
        let plain = try ChapterData(validatingNumber: 42, name: "n", progress: 35)
        #expect(String(decoding: plain.encodeJSON(), as: UTF8.self) == #"{"number":42,"name":"n","progress":35,"coverImagePath":""}"#)
        let full = try ChapterData(validatingNumber: 42, name: "n", progress: 35, coverImagePath: "c.jpg", page: 7, language: "en")
        #expect(String(decoding: full.encodeJSON(), as: UTF8.self) == #"{"number":42,"name":"n","progress":35,"coverImagePath":"c.jpg","page":7,"language":"en"}"#)
    }

    // MARK: Specials

    @Test func aSpecialsChapterComesWithItsUniverseAndPage() throws {
        let special = try ChapterData(validatingNumber: 1, name: "Special", progress: 50, page: 101, language: "en", universe: 3)
        #expect(special.universe == 3)
        #expect(String(decoding: special.encodeJSON(), as: UTF8.self)
            == #"{"number":1,"name":"Special","progress":50,"coverImagePath":"","page":101,"language":"en","universe":3}"#)
        #expect(try ChapterData.decode(special.encodeJSON()) == special)
        #expect(special.isChapter(1, universe: 3) && !special.isChapter(1, universe: nil) && !special.isChapter(1, universe: 0))
        #expect(special.syncState() == SyncState(chapter: 1, progress: 50, universe: 3))

        // 0 is the main story, written as nothing; a null reads as absent.
        let main = try ChapterData(validatingNumber: 1, name: "Main", progress: 50, universe: 0)
        #expect(main.universe == nil && main.isChapter(1, universe: nil) && main.isChapter(1, universe: 0))
        #expect(!String(decoding: main.encodeJSON(), as: UTF8.self).contains("universe"))
        #expect(try decode(#"{"number":1,"name":"n","progress":0,"universe":null}"#).universe == nil)
        #expect(try decode(#"{"number":1,"name":"n","progress":0,"universe":0}"#).universe == nil)

        // Moving on keeps the chapter, name, cover and universe.
        let moved = try special.updatingPosition(progress: 60, page: 102, language: "fr")
        #expect(moved.number == 1 && moved.name == "Special" && moved.universe == 3)
        #expect(moved.progress == 60 && moved.page == 102 && moved.language == "fr")
    }

    @Test func aSpecialsChapterWithoutItsPageOrOutOfRangeIsRejected() {
        let noPage = thrownError { () throws(ComicError) in try ChapterData(validatingNumber: 1, name: "n", progress: 0, universe: 3) }
        #expect(noPage?.kind == .invalidOption && noPage?.message.contains("needs the page") == true, "\(String(describing: noPage))")
        for universe in [-1, 100_000] {
            let error = thrownError { () throws(ComicError) in
                try ChapterData(validatingNumber: 1, name: "n", progress: 0, page: 5, universe: universe)
            }
            #expect(error?.kind == .invalidOption && error?.message.contains("universe \(universe) is out of range 0…99999") == true)
        }
        #expect(decodeError(#"{"number":1,"name":"n","progress":0,"universe":3}"#)?.kind == .invalidOption)
        #expect(decodeError(#"{"number":1,"name":"n","progress":0,"page":4,"universe":"3"}"#)?.kind == .storageFailed)
    }

    // MARK: Sync state

    @Test func syncStateRoundTrips() throws {
        let state = SyncState(chapter: 42, progress: 35)
        #expect(String(decoding: state.encodeJSON(), as: UTF8.self) == #"{"chapter":42,"progress":35}"#)
        #expect(try SyncState.decode(state.encodeJSON()) == state)
        #expect(try SyncState.decode(Array(#" {"progress": 0, "chapter": 1, "extra": "x"} "#.utf8)) == SyncState(chapter: 1, progress: 0))

        let full = SyncState(chapter: 1, progress: 35, universe: 3, latestPage: .init(page: 2450, language: "fr"))
        #expect(String(decoding: full.encodeJSON(), as: UTF8.self)
            == #"{"chapter":1,"progress":35,"universe":3,"latestPage":2450,"language":"fr"}"#)
        #expect(try SyncState.decode(full.encodeJSON()) == full)
        #expect(try SyncState.decode(Array(#"{"chapter":1,"progress":35,"universe":0}"#.utf8)) == SyncState(chapter: 1, progress: 35))
    }

    @Test(arguments: [
        (#"{"chapter":42}"#, ComicError.Kind.storageFailed, #"missing key "progress""#),
        (#"{"chapter":0,"progress":1}"#, .invalidChapter, "chapter 0 is out of range 1…99999"),
        (#"{"chapter":1,"progress":-1}"#, .invalidProgress, "progress -1 is out of range 0…100"),
        (#"{"chapter":1.5,"progress":1}"#, .storageFailed, "must be an integer"),
        (#"{"chapter":1,"progress":1,"universe":-3}"#, .invalidOption, "universe -3 is out of range"),
        (#"{"chapter":1,"progress":1,"latestPage":0,"language":"en"}"#, .invalidPage, "latest page 0 is out of range"),
        (#"{"chapter":1,"progress":1,"latestPage":5}"#, .storageFailed, "without the valid \"language\""),
        (#"{"chapter":1,"progress":1,"latestPage":5,"language":"../x"}"#, .storageFailed, "without the valid \"language\""),
        ("nope", .storageFailed, "malformed JSON at byte 0"),
    ])
    func syncStateDecodingErrors(text: String, kind: ComicError.Kind, message: String) {
        let error = thrownError { () throws(ComicError) in try SyncState.decode(Array(text.utf8)) }
        #expect(error?.kind == kind)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }
}
