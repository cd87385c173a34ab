@testable import ComicDomain
import Glibc
import Testing

@Suite("Data folder: location, reading, atomic writing", .timeLimit(.minutes(1)))
struct DataFolderTests {
    private let sample = #"{"number":42,"name":"Goku vs. Goku","progress":35,"coverImagePath":""}"#

    private func reason<T>(_ result: ReadResult<T>) -> String? {
        if case .invalid(let reason) = result { return reason }
        return nil
    }

    // MARK: Location

    @Test func resolvesTheContractLocations() throws {
        #expect(try DataFolder.resolve(environment: ["DBMULTIVERSE_DATA_DIR": "/srv/dbm/", "XDG_DATA_HOME": "/x", "HOME": "/home/u"]).path == "/srv/dbm")
        #expect(try DataFolder.resolve(environment: ["DBMULTIVERSE_DATA_DIR": "", "XDG_DATA_HOME": "/x/data", "HOME": "/home/u"]).path == "/x/data/dbmultiverse")
        #expect(try DataFolder.resolve(environment: ["XDG_DATA_HOME": "relative/data", "HOME": "/home/u"]).path == "/home/u/.local/share/dbmultiverse")
        #expect(try DataFolder.resolve(environment: ["XDG_DATA_HOME": "", "HOME": "/home/u/"]).path == "/home/u/.local/share/dbmultiverse")
        // Without HOME the password database still names a home directory.
        #expect(try DataFolder.resolve(environment: [:]).path.hasSuffix("/.local/share/dbmultiverse"))
        #expect(try DataFolder.resolve(environment: [:]).path.hasPrefix("/"))
    }

    /// Issue 39, defect 4: a relative `DBMULTIVERSE_DATA_DIR` was taken from each process's working
    /// folder (the activated service wrote /rel/currentChapterData.json, doctor read <cwd>/rel): the
    /// data was split. It is refused, naming the variable and its value.
    @Test func aRelativeDataFolderIsRefused() {
        for value in ["rel", "./data", "~/data", "../x"] {
            #expect(throws: ComicError.self) { try DataFolder.resolve(environment: ["DBMULTIVERSE_DATA_DIR": value, "HOME": "/home/u"]) }
            do {
                _ = try DataFolder.resolve(environment: ["DBMULTIVERSE_DATA_DIR": value])
            } catch {
                #expect(error.kind == .storageFailed)
                #expect(error.message.hasPrefix("DBMULTIVERSE_DATA_DIR is \"\(value)\", a relative path: set it to an absolute one, or unset it"),
                        "\(error.message)")
            }
        }
    }

    @Test func pathsAreAbsoluteWithoutTrailingSlash() {
        let folder = DataFolder(path: "/a//b///")
        #expect(folder.path == "/a/b")
        #expect(folder.chapterDataPath == "/a/b/currentChapterData.json")
        #expect(folder.coverImagePath == "/a/b/chapterCoverImage.jpg")
        #expect(folder.syncStatePath == "/a/b/widgetSyncState.json")
        #expect(DataFolder(path: "/").path == "/")
        #expect(folder.parentPath == "/a" && folder.name == "b")
        #expect(DataFolder(path: "/top").parentPath == "/" && DataFolder(path: "/top").name == "top")
        let relative = DataFolder(path: "some/dir")
        #expect(relative.path.hasPrefix("/") && relative.path.hasSuffix("/some/dir"))
    }

    // MARK: Creating

    @Test func createsTheFolderAndItsParentsPrivately() throws {
        try withTemporaryDirectory { tmp in
            let folder = DataFolder(path: tmp + "/a/b/dbmultiverse")
            try folder.create()
            try folder.create()  // idempotent
            let status = try #require(fileStatus(folder.path))
            #expect(status.st_mode & S_IFMT == S_IFDIR)
            #expect(status.st_mode & 0o777 == 0o700)
            #expect(fileStatus(tmp + "/a").map { $0.st_mode & 0o777 } == 0o700)
        }
    }

    @Test func refusesAFileWhereTheFolderShouldBe() throws {
        try withTemporaryDirectory { tmp in
            try writeFile(tmp + "/file", "x")
            let error = thrownError { () throws(ComicError) in try DataFolder(path: tmp + "/file").create() }
            #expect(error == ComicError(.storageFailed, "\(tmp)/file exists and is not a directory"))
            let below = thrownError { () throws(ComicError) in try DataFolder(path: tmp + "/file/sub").create() }
            #expect(below?.kind == .storageFailed)
            let write = thrownError { () throws(ComicError) in try DataFolder(path: tmp + "/file").writeSyncState(SyncState(chapter: 1, progress: 0)) }
            #expect(write?.kind == .storageFailed)
        }
    }

    // MARK: Reading

    @Test func missingFilesAreMissing() throws {
        try withTemporaryDirectory { tmp in
            let folder = DataFolder(path: tmp + "/not-created-yet")
            #expect(folder.readChapterData() == .missing)
            #expect(folder.readSyncState() == .missing)
        }
    }

    @Test func readsValidFiles() throws {
        try withDataFolder { folder in
            try writeFile(folder.chapterDataPath, sample)
            try writeFile(folder.syncStatePath, #"{"chapter":41,"progress":100}"#)
            #expect(folder.readChapterData() == .valid(try ChapterData(validatingNumber: 42, name: "Goku vs. Goku", progress: 35)))
            #expect(folder.readSyncState().value == SyncState(chapter: 41, progress: 100))
        }
    }

    /// Issue 39, defect 5: a file written by another version. Its keys this version does not know
    /// are kept by every rewrite (they were dropped at the next `progress 50`), and a language it
    /// does not know keeps the position (the whole file was refused): read without it, and written
    /// back as it was until a page read in a known language replaces it.
    @Test func dataFromAnotherVersionIsReadAndKept() throws {
        try withDataFolder { folder in
            let written = #"{"number":42,"name":"Vegeta","progress":35,"coverImagePath":"","page":980,"language":"xx_NEW","#
                + #""readerApp":{"version":7,"themes":["dark"]},"bookmarks":[3,14]}"#
            try writeFile(folder.chapterDataPath, written)
            let stored = try #require(folder.readChapterData().value, "the position is read")
            #expect(stored.number == 42 && stored.progress == 35 && stored.page == 980)
            #expect(stored.language == nil && stored.unknownLanguage == "xx_NEW" && stored.siteLanguage == nil)

            try folder.writeChapterData(try stored.updatingProgress(50))
            let rewritten = String(decoding: try #require(readFile(folder.chapterDataPath)), as: UTF8.self)
            #expect(rewritten == #"{"number":42,"name":"Vegeta","progress":50,"coverImagePath":"","page":980,"language":"xx_NEW","#
                    + #""readerApp":{"version":7,"themes":["dark"]},"bookmarks":[3,14]}"# + "\n")
            // A new chapter keeps them too; a known language replaces the unknown one.
            try folder.writeChapter(try ChapterData(validatingNumber: 43, name: "Next", progress: 0, page: 1000, language: "fr"), cover: [])
            let next = String(decoding: try #require(readFile(folder.chapterDataPath)), as: UTF8.self)
            #expect(next == #"{"number":43,"name":"Next","progress":0,"coverImagePath":"","page":1000,"language":"fr","#
                    + #""readerApp":{"version":7,"themes":["dark"]},"bookmarks":[3,14]}"# + "\n")
        }
    }

    @Test func invalidContentIsReportedWithTheFileAndTheReason() throws {
        try withDataFolder { folder in
            let file = folder.chapterDataPath
            try writeFile(file, #"{"number":0,"name":"n","progress":1}"#)
            #expect(reason(folder.readChapterData()) == "\(file): chapter 0 is out of range 1…99999")
            try writeFile(file, #"{"number":1,"name":"n" "progress":1}"#)
            #expect(reason(folder.readChapterData()) == "\(file): malformed JSON at byte 23: expected ',' or '}' in an object, found '\"'")
            try writeFile(file, [0xFF])
            #expect(reason(folder.readChapterData())?.contains("not valid UTF-8 at byte 0") == true)
            try writeFile(file, "")
            #expect(reason(folder.readChapterData())?.contains("malformed JSON at byte 0") == true)
        }
    }

    @Test func oversizedFilesAreNotRead() throws {
        try withDataFolder { folder in
            try writeFile(folder.chapterDataPath, sample + String(repeating: " ", count: 70000 - sample.utf8.count))
            #expect(reason(folder.readChapterData()) == "\(folder.chapterDataPath) is 70000 bytes, more than 65536")
            // A sparse 1 TiB file is refused from its size alone.
            let fd = open(folder.syncStatePath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            #expect(fd >= 0)
            #expect(ftruncate(fd, 1 << 40) == 0)
            close(fd)
            #expect(reason(folder.readSyncState()) == "\(folder.syncStatePath) is 1099511627776 bytes, more than 65536")
        }
    }

    @Test func directoriesAreNotFiles() throws {
        try expectRefused(made: { mkdir($0, 0o700) }, "is a directory, not a regular file")
    }

    /// Something other than a regular file, made at the chapter data's path by `make`, is refused
    /// as the file, for `why`.
    private func expectRefused(made make: (String) -> Int32, _ why: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try withDataFolder { folder in
            #expect(make(folder.chapterDataPath) == 0, sourceLocation: sourceLocation)
            #expect(reason(folder.readChapterData()) == "\(folder.chapterDataPath) \(why)", sourceLocation: sourceLocation)
        }
    }

    @Test func symlinksAreNotFollowed() throws {
        try withTemporaryDirectory { tmp in
            let folder = DataFolder(path: tmp + "/data")
            try folder.create()
            try writeFile(tmp + "/elsewhere.json", sample)
            #expect(symlink(tmp + "/elsewhere.json", folder.chapterDataPath) == 0)
            #expect(reason(folder.readChapterData()) == "\(folder.chapterDataPath) is a symbolic link, which is not followed")
            #expect(symlink(tmp + "/dangling", folder.syncStatePath) == 0)
            #expect(reason(folder.readSyncState())?.contains("is a symbolic link") == true)
        }
    }

    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        try expectRefused(made: { mkfifo($0, 0o600) }, "is a FIFO, not a regular file")
    }

    // MARK: Writing

    @Test func writesAtomicallyWithPrivateModes() throws {
        try withTemporaryDirectory { tmp in
            let folder = DataFolder(path: tmp + "/fresh")
            let data = try ChapterData(validatingNumber: 7, name: "Tab\tand \"quote\" 🐉", progress: 100, coverImagePath: "chapterCoverImage.jpg", page: 3, language: "pt_BR")
            for _ in 0..<5 { try folder.writeChapterData(data) }
            #expect(folder.readChapterData() == .valid(data))
            #expect(readFile(folder.chapterDataPath) == data.encodeJSON() + [0x0A])
            try folder.writeSyncState(SyncState(chapter: 7, progress: 100))
            #expect(folder.readSyncState() == .valid(SyncState(chapter: 7, progress: 100)))
            #expect(fileStatus(folder.chapterDataPath).map { $0.st_mode & 0o7777 } == 0o600)
            #expect(fileStatus(folder.syncStatePath).map { $0.st_mode & 0o7777 } == 0o600)
            #expect(fileStatus(folder.path).map { $0.st_mode & 0o7777 } == 0o700)
            #expect(directoryEntries(folder.path) == ["currentChapterData.json", "widgetSyncState.json"], "no temporary file left")
        }
    }

    @Test func writesReplaceASymlinkInsteadOfFollowingIt() throws {
        try withTemporaryDirectory { tmp in
            let folder = DataFolder(path: tmp + "/data")
            try folder.create()
            try writeFile(tmp + "/victim", "precious")
            #expect(symlink(tmp + "/victim", folder.syncStatePath) == 0)
            try folder.writeSyncState(SyncState(chapter: 2, progress: 3))
            #expect(readFile(tmp + "/victim") == Array("precious".utf8))
            #expect(fileStatus(folder.syncStatePath).map { $0.st_mode & S_IFMT } == S_IFREG)
            #expect(folder.readSyncState() == .valid(SyncState(chapter: 2, progress: 3)))
        }
    }

    @Test func aFailedWriteLeavesNoTemporaryFile() throws {
        try withTemporaryDirectory { tmp in
            let folder = DataFolder(path: tmp)
            #expect(mkdir(folder.chapterDataPath, 0o700) == 0)
            try writeFile(folder.chapterDataPath + "/keep", "x")  // a non-empty directory cannot be renamed over
            let error = thrownError { () throws(ComicError) in
                try folder.writeChapterData(try ChapterData(validatingNumber: 1, name: "n", progress: 0))
            }
            #expect(error?.kind == .storageFailed)
            #expect(error?.message.hasPrefix("cannot rename the temporary file over \(folder.chapterDataPath): ") == true)
            #expect(directoryEntries(tmp) == ["currentChapterData.json"])
        }
    }

    @Test func removingSyncStateToleratesAMissingFile() throws {
        try withDataFolder { folder in
            try folder.removeSyncState()
            try folder.writeSyncState(SyncState(chapter: 1, progress: 1))
            try folder.removeSyncState()
            #expect(folder.readSyncState() == .missing)
        }
    }

    // MARK: Cover

    @Test func writesAndRemovesTheCover() throws {
        try withDataFolder { folder in
            let data = try ChapterData(validatingNumber: 7, name: "Seven", progress: 10, coverImagePath: folder.coverImagePath)
            let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
            try folder.writeChapter(data, cover: jpeg)
            #expect(readFile(folder.coverImagePath) == jpeg)
            #expect(fileStatus(folder.coverImagePath).map { $0.st_mode & 0o7777 } == 0o600)
            let png: [UInt8] = CoverImage.pngSignature + [0, 0, 0, 13]
            try folder.writeChapter(data, cover: png)
            #expect(readFile(folder.coverImagePath) == png)
            let rejected = thrownError { () throws(ComicError) in try folder.writeChapter(data, cover: Array("GIF89a".utf8)) }
            #expect(rejected == ComicError(.coverRejected, "cover is neither JPEG nor PNG"))
            #expect(readFile(folder.coverImagePath) == png, "a rejected cover writes nothing")
            try folder.removeCover()
            #expect(fileStatus(folder.coverImagePath) == nil)
            try folder.removeCover()  // missing is fine
        }
    }

    @Test func chapterAndCoverAreStoredTogether() throws {
        try withTemporaryDirectory { tmp in
            let folder = DataFolder(path: tmp)
            let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
            let first = try ChapterData(validatingNumber: 7, name: "Seven", progress: 10, coverImagePath: folder.coverImagePath)
            try folder.writeChapter(first, cover: jpeg)
            #expect(readFile(folder.coverImagePath) == jpeg)
            #expect(folder.readChapterData() == .valid(first))

            // A rejected cover stores neither file.
            let second = try ChapterData(validatingNumber: 8, name: "Eight", progress: 0, coverImagePath: folder.coverImagePath)
            let rejected = thrownError { () throws(ComicError) in try folder.writeChapter(second, cover: Array("GIF89a".utf8)) }
            #expect(rejected?.kind == .coverRejected)
            #expect(readFile(folder.coverImagePath) == jpeg)
            #expect(folder.readChapterData() == .valid(first))

            // No cover: the stored one goes, the data names none.
            let third = try ChapterData(validatingNumber: 9, name: "Nine", progress: 0)
            try folder.writeChapter(third, cover: [])
            #expect(fileStatus(folder.coverImagePath) == nil)
            #expect(folder.readChapterData() == .valid(third))
            #expect(directoryEntries(tmp).sorted() == [DataFolder.chapterDataFile], "no temporary file is left behind")
        }
    }

    @Test func coverFromAFile() throws {
        try withTemporaryDirectory { directory in
            func read(_ path: String) -> Result<[UInt8], ComicError> {
                do throws(ComicError) { return .success(try CoverImage.read(path: path)) } catch { return .failure(error) }
            }
            let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]
            try writeFile(directory + "/cover.jpg", jpeg)
            #expect(try read(directory + "/cover.jpg").get() == jpeg)

            var oversized = [UInt8](repeating: 0, count: Limits.maxCoverBytes + 100)
            oversized[0] = 0xFF; oversized[1] = 0xD8; oversized[2] = 0xFF
            try writeFile(directory + "/big.jpg", oversized)
            // Read one byte past the limit, not the whole file.
            #expect(read(directory + "/big.jpg") == .failure(ComicError(.coverRejected, directory + "/big.jpg: cover is 8388609 bytes, more than 8388608")))

            try writeFile(directory + "/cover.gif", Array("GIF89a".utf8))
            #expect(read(directory + "/cover.gif") == .failure(ComicError(.coverRejected, directory + "/cover.gif: cover is neither JPEG nor PNG")))
            #expect(read(directory + "/missing.png") == .failure(ComicError(.coverRejected, "cannot read the cover \(directory)/missing.png: No such file or directory")))
        }
    }

    /// Issue 30, defect 7: covers are bounded in pixels too, read from the header (PNG IHDR, JPEG
    /// SOF after any other segments) without decoding; a header that states no size passes.
    @Test func coverSizeIsReadFromTheHeader() {
        func png(_ width: UInt8, _ height: UInt8) -> [UInt8] {
            CoverImage.pngSignature + [0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, width, 0, 0, 0, height, 0, 8, 6, 0, 0, 0]
        }
        func jpeg(width: Int, height: Int, sof: UInt8 = 0xC2) -> [UInt8] {
            [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x06, 1, 2, 3, 4, 0xFF, 0xFF, 0xC4, 0x00, 0x03, 9, 0xFF, sof, 0x00, 0x11, 0x08,
             UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3, 0, 0]
        }
        #expect(CoverImage.dimensions(png(0x10, 0x20)).map { [$0.width, $0.height] } == [0x1000, 0x2000])
        #expect(CoverImage.dimensions(jpeg(width: 800, height: 1130)).map { [$0.width, $0.height] } == [800, 1130])
        #expect(CoverImage.dimensions([0xFF, 0xD8, 0xFF, 0xDA]) == nil)
        let check = { (bytes: [UInt8]) in thrownError { () throws(ComicError) in try CoverImage.validate(bytes) } }
        #expect(check(jpeg(width: 800, height: 1130)) == nil)
        #expect(check(jpeg(width: 4096, height: 4096, sof: 0xC0)) == nil)
        #expect(check(jpeg(width: 5000, height: 100)) == ComicError(.coverRejected, "cover is 5000×100 pixels, more than 4096 a side"))
        #expect(check(png(0x40, 0x40)) == ComicError(.coverRejected, "cover is 16384×16384 pixels, more than 4096 a side"))
    }

    @Test func coverValidation() {
        func check(_ bytes: [UInt8]) -> ComicError? {
            thrownError { () throws(ComicError) in try CoverImage.validate(bytes) }
        }
        #expect(check([0xFF, 0xD8, 0xFF]) == nil)
        #expect(check([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == nil)
        #expect(check([]) == ComicError(.coverRejected, "cover is empty"))
        #expect(check([0xFF, 0xD8]) == ComicError(.coverRejected, "cover is neither JPEG nor PNG"))
        #expect(check([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A]) == ComicError(.coverRejected, "cover is neither JPEG nor PNG"))
        #expect(check(Array("<svg/>".utf8)) == ComicError(.coverRejected, "cover is neither JPEG nor PNG"))
        var largest = [UInt8](repeating: 0, count: Limits.maxCoverBytes)
        largest[0] = 0xFF; largest[1] = 0xD8; largest[2] = 0xFF
        #expect(check(largest) == nil)
        largest.append(0)
        #expect(check(largest) == ComicError(.coverRejected, "cover is 8388609 bytes, more than 8388608"))
    }

    @Test func resolvesCoverPathsOnlyInsideTheFolder() throws {
        try withTemporaryDirectory { tmp in
            let folder = DataFolder(path: tmp + "/data")
            try folder.create()
            let real = try #require(realPathOf(folder.path))
            try writeFile(folder.coverImagePath, [0xFF, 0xD8, 0xFF])
            try writeFile(tmp + "/outside.jpg", [0xFF, 0xD8, 0xFF])
            #expect(mkdir(tmp + "/data2", 0o700) == 0)
            try writeFile(tmp + "/data2/cover.jpg", [0xFF, 0xD8, 0xFF])
            #expect(mkdir(folder.path + "/sub", 0o700) == 0)
            try writeFile(folder.path + "/sub/c.png", [0x89])
            #expect(symlink(tmp + "/outside.jpg", folder.path + "/escape.jpg") == 0)
            #expect(symlink(folder.coverImagePath, folder.path + "/alias.jpg") == 0)

            #expect(folder.resolvedCoverPath("") == nil)
            #expect(folder.resolvedCoverPath("chapterCoverImage.jpg") == real + "/chapterCoverImage.jpg")
            #expect(folder.resolvedCoverPath(folder.coverImagePath) == real + "/chapterCoverImage.jpg")
            #expect(folder.resolvedCoverPath("sub/../chapterCoverImage.jpg") == real + "/chapterCoverImage.jpg")
            #expect(folder.resolvedCoverPath("sub/c.png") == real + "/sub/c.png")
            #expect(folder.resolvedCoverPath("alias.jpg") == real + "/chapterCoverImage.jpg", "a link inside to inside is served as its target")
            #expect(folder.resolvedCoverPath("escape.jpg") == nil, "a link leading out of the folder")
            #expect(folder.resolvedCoverPath(tmp + "/outside.jpg") == nil)
            #expect(folder.resolvedCoverPath("../outside.jpg") == nil)
            #expect(folder.resolvedCoverPath(tmp + "/data2/cover.jpg") == nil, "a sibling sharing the folder's name as prefix")
            #expect(folder.resolvedCoverPath(".") == nil, "the folder itself")
            #expect(folder.resolvedCoverPath("sub") == nil, "a directory")
            #expect(folder.resolvedCoverPath("missing.jpg") == nil)
            #expect(folder.resolvedCoverPath("/etc/passwd") == nil)
            #expect(folder.resolvedCoverPath("a\u{0}b") == nil)
        }
    }

    @Test func servesCoversUpToTheSizeLimit() throws {
        try withTemporaryDirectory { tmp in
            let folder = DataFolder(path: tmp)
            for (name, size) in [("exact.jpg", Limits.maxCoverBytes), ("big.jpg", Limits.maxCoverBytes + 1)] {
                let fd = open(tmp + "/" + name, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
                #expect(fd >= 0)
                #expect(ftruncate(fd, off_t(size)) == 0)
                close(fd)
            }
            #expect(folder.resolvedCoverPath("exact.jpg")?.hasSuffix("/exact.jpg") == true)
            #expect(folder.resolvedCoverPath("big.jpg") == nil)
        }
    }

    @Test func resolvesThroughASymlinkedDataFolder() throws {
        try withTemporaryDirectory { tmp in
            #expect(mkdir(tmp + "/real", 0o700) == 0)
            #expect(symlink(tmp + "/real", tmp + "/link") == 0)
            let folder = DataFolder(path: tmp + "/link")
            let data = try ChapterData(validatingNumber: 7, name: "Seven", progress: 10, coverImagePath: folder.coverImagePath)
            try folder.writeChapter(data, cover: [0xFF, 0xD8, 0xFF])
            let realFolder = try #require(realPathOf(tmp + "/real"))
            #expect(folder.resolvedCoverPath(DataFolder.coverImageFile) == realFolder + "/chapterCoverImage.jpg")
            #expect(folder.readChapterData() == .valid(data))
        }
    }

    /// Issue 30, defect 1: no write may produce a file the reader refuses (over 64 KiB): it would
    /// replace the stored position with one nobody can read. A cover path long enough for that is
    /// refused, and the stored file stays.
    @Test func aWriteNeverLeavesAFileTheReaderRefuses() throws {
        try withDataFolder { folder in
            let stored = try ChapterData(validatingNumber: 42, name: "Vegeta", progress: 35)
            try folder.writeChapterData(stored)
            let long = try ChapterData(validatingNumber: 43, name: "Next", progress: 1,
                                       coverImagePath: "/" + String(repeating: "c", count: Limits.maxChapterFileBytes))
            let error = thrownError { () throws(ComicError) in try folder.writeChapterData(long) }
            #expect(error?.kind == .storageFailed && error?.message.contains("more than the 65536 the reader accepts") == true, "\(String(describing: error))")
            #expect(thrownError { () throws(ComicError) in try folder.writeChapter(long, cover: []) }?.kind == .storageFailed)
            #expect(folder.readChapterData().value == stored)
        }
    }
}

private func realPathOf(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)

}
