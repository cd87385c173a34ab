@testable import ComicDomain
import Glibc
import Testing

/// The sync folder's rule (docs/sync.md) with made-up clocks: two or three computers' `ReadingSync`s
/// exchanging records by hand, as a sync tool would.
@Suite("Sync folder rule", .timeLimit(.minutes(1)))
struct ReadingSyncTests {
    /// A moment of the real time line, Unix milliseconds.
    static let noon: Int64 = 1_795_000_000_000
    static let laptop = ComputerIdentity(machine: "machine-a", name: "Laptop")
    static let desktop = ComputerIdentity(machine: "machine-b", name: "Desktop")

    static func reading(_ chapter: Int, progress: Int = 0, page: Int? = nil) -> ChapterData {
        // In range: cannot throw.
        try! ChapterData(validatingNumber: chapter, name: "Chapter \(chapter)", progress: progress, page: page, language: "en")
    }

    /// `computer` reads `chapter` at `now` (its own clock) and publishes it, as the service does at
    /// the reload that follows.
    static func read(_ chapter: Int, on computer: inout ReadingSync, at now: Int64) -> ReadingRecord {
        computer.localChanged(reading(chapter), now: now, readAt: now / 1000)
        guard let record = computer.reloaded() else { fatalError("nothing to publish") }
        return record
    }

    // MARK: Clock skew

    @Test func aComputerTenMinutesAheadDoesNotWinOverALaterReadingThatSawIt() {
        var a = ReadingSync(identity: Self.laptop, saved: nil)
        var b = ReadingSync(identity: Self.desktop, saved: nil)
        let skew: Int64 = 10 * 60 * 1000
        // A reads chapter 70 at noon, its clock saying 12:10.
        let fromA = Self.read(70, on: &a, at: Self.noon + skew)
        #expect(b.recordRead("machine-a.json", fromA) == fromA, "B adopts it")
        // One minute later (real time) B reads chapter 71: its clock says 12:01, behind A's stamp.
        let fromB = Self.read(71, on: &b, at: Self.noon + 60_000)
        #expect(fromB.readAt < fromA.readAt, "by the clocks alone, A's reading would look newer")
        #expect(fromB.stamp > fromA.stamp, "B's reading is stamped after what B saw")
        #expect(fromB.stamp.time == fromA.stamp.time && fromB.stamp.count == 1)
        #expect(a.recordRead("machine-b.json", fromB) == fromB, "A adopts B's later reading")
        #expect(b.recordRead("machine-a.json", fromA) == nil, "B keeps its own")
        #expect(a.current == fromB && b.current == fromB)
        // A reads again, still ahead: after B's, whatever the clocks.
        let again = Self.read(72, on: &a, at: Self.noon + skew + 120_000)
        #expect(again.stamp > fromB.stamp && again.stamp.count == 0)
    }

    @Test func readingsThatDidNotSeeEachOtherGoByTheirClocks() {
        var a = ReadingSync(identity: Self.laptop, saved: nil)
        var b = ReadingSync(identity: Self.desktop, saved: nil)
        let fromA = Self.read(50, on: &a, at: Self.noon)
        let fromB = Self.read(51, on: &b, at: Self.noon + 5_000)
        #expect(a.recordRead("machine-b.json", fromB) == fromB)
        #expect(b.recordRead("machine-a.json", fromA) == nil)
        #expect(a.current == b.current)
    }

    // MARK: Ties

    @Test func twoReadingsInTheSameMillisecondEndOnTheSameOneEverywhere() {
        var a = ReadingSync(identity: Self.laptop, saved: nil)
        var b = ReadingSync(identity: Self.desktop, saved: nil)
        let fromA = Self.read(60, on: &a, at: Self.noon)
        let fromB = Self.read(61, on: &b, at: Self.noon)
        #expect(fromA.stamp.time == fromB.stamp.time && fromA.stamp.count == fromB.stamp.count)
        // Delivered in either order, both end on machine-b's (the greater id, byte by byte).
        #expect(a.recordRead("machine-b.json", fromB) == fromB)
        #expect(b.recordRead("machine-a.json", fromA) == nil)
        #expect(a.current == fromB && b.current == fromB)
        #expect(ReadingStamp(time: 1, count: 0, machine: "B") < ReadingStamp(time: 1, count: 0, machine: "a"), "bytes, not locale order")
    }

    @Test func readingsInOneMillisecondAreCounted() {
        var clock = ReadingClock()
        let first = clock.stamp(now: Self.noon, machine: "m")
        let second = clock.stamp(now: Self.noon, machine: "m")
        let earlierClock = clock.stamp(now: Self.noon - 1, machine: "m")
        #expect([first.count, second.count, earlierClock.count] == [0, 1, 2])
        #expect(first < second && second < earlierClock)
        #expect(clock.stamp(now: Self.noon + 1, machine: "m") == ReadingStamp(time: Self.noon + 1, count: 0, machine: "m"))
    }

    // MARK: Restarts

    @Test func theClockSurvivesARestart() {
        var a = ReadingSync(identity: Self.laptop, saved: nil)
        var b = ReadingSync(identity: Self.desktop, saved: nil)
        let ahead = Self.read(10, on: &b, at: Self.noon + 3_600_000) // B's clock an hour ahead
        _ = a.recordRead("machine-b.json", ahead)
        // A restarts from what it kept; the folder is away. Its next reading still comes after B's.
        var restarted = ReadingSync(identity: Self.laptop, saved: a.saved)
        #expect(restarted.current == ahead)
        #expect(restarted.start(local: Self.reading(10), storedAt: Self.noon, readAt: Self.noon / 1000) == nil, "the same reading")
        let next = Self.read(11, on: &restarted, at: Self.noon + 1_000)
        #expect(next.stamp > ahead.stamp)
    }

    @Test func aReadingMadeWhileNothingSharedItIsStampedAtItsFileTime() {
        // The laptop read chapter 10 yesterday; the desktop read chapter 50 an hour ago and
        // shares it. The laptop joins today: chapter 50 wins, not the one that joined last.
        var laptop = ReadingSync(identity: Self.laptop, saved: nil)
        var desktop = ReadingSync(identity: Self.desktop, saved: nil)
        let recent = Self.read(50, on: &desktop, at: Self.noon - 3_600_000)
        let stale = laptop.start(local: Self.reading(10), storedAt: Self.noon - 86_400_000, readAt: Self.noon / 1000)
        #expect(stale?.stamp.time == Self.noon - 86_400_000, "published at once, stamped when it was read")
        #expect(laptop.recordRead("machine-b.json", recent) == recent)
        // The other way round: the laptop's chapter 10 was read a minute ago; it wins.
        var fresh = ReadingSync(identity: Self.laptop, saved: nil)
        let own = fresh.start(local: Self.reading(10), storedAt: Self.noon - 60_000, readAt: Self.noon / 1000)
        #expect(fresh.recordRead("machine-b.json", recent) == nil)
        #expect(fresh.current == own)
    }

    // MARK: Publishing

    @Test func aReadingIsPublishedOnceAtTheReloadThatFollowsIt() {
        var a = ReadingSync(identity: Self.laptop, saved: nil)
        #expect(a.reloaded() == nil, "nothing read yet")
        a.localChanged(Self.reading(42, progress: 30), now: Self.noon, readAt: 0)
        a.localChanged(Self.reading(42, progress: 31), now: Self.noon + 500, readAt: 0) // held back by the thresholds
        a.localChanged(Self.reading(42, progress: 36), now: Self.noon + 900, readAt: 0)
        #expect(a.reloaded()?.reading.progress == 36, "the reading as of the reload")
        #expect(a.reloaded() == nil, "written once")
        a.localChanged(Self.reading(42, progress: 36), now: Self.noon + 5_000, readAt: 0)
        #expect(a.reloaded() == nil, "the same position is no new reading")
        a.localChanged(nil, now: Self.noon + 6_000, readAt: 0)
        #expect(a.current?.reading.progress == 36, "a removed data file takes no reading back")
    }

    @Test func anAdoptedReadingStoredHereIsNoNewReading() {
        var a = ReadingSync(identity: Self.laptop, saved: nil)
        var b = ReadingSync(identity: Self.desktop, saved: nil)
        let fromB = Self.read(30, on: &b, at: Self.noon)
        #expect(a.recordRead("machine-b.json", fromB) == fromB)
        #expect(a.continued(Self.reading(30)) == "Desktop")
        a.localChanged(fromB.reading.adopted(keepingCoverOf: nil), now: Self.noon + 10, readAt: 0)
        #expect(a.reloaded() == nil && a.current == fromB, "the echo of the adoption publishes nothing")
        #expect(a.recordRead("machine-b.json", nil) == nil && a.current == fromB, "a record gone takes nothing back")
        a.localChanged(Self.reading(31), now: Self.noon + 20, readAt: 0)
        #expect(a.continued(Self.reading(31)) == nil, "read here")
    }

    // MARK: The record

    @Test func aRecordRoundTripsAndIgnoresUnknownKeys() throws {
        let record = ReadingRecord(reading: try ChapterData(validatingNumber: 3, name: "Special", progress: 20, coverImagePath: "/x.jpg",
                                                            page: 500, language: "fr", universe: 2),
                                   stamp: ReadingStamp(time: Self.noon, count: 7, machine: "m-1"), computer: "Mon portable", readAt: 12)
        #expect(record.reading.coverImagePath == "", "covers do not cross")
        #expect(try ReadingRecord.decode(record.encodeJSON()) == record)
        let extra = Array(#"{"later":[1],"machine":"m","computer":"PC","readAt":1,"time":2,"count":0,"chapter":1,"name":"N","progress":0}"#.utf8)
        #expect(try ReadingRecord.decode(extra).stamp == ReadingStamp(time: 2, count: 0, machine: "m"))
    }

    @Test(arguments: [
        (#"{"machine":"../x","computer":"PC","readAt":1,"time":2,"count":0,"chapter":1,"name":"N","progress":0}"#, "is not a machine id"),
        (#"{"machine":"m","computer":"","readAt":1,"time":2,"count":0,"chapter":1,"name":"N","progress":0}"#, "1 to 64 characters"),
        (#"{"machine":"m","computer":"a\u001b[2J","readAt":1,"time":2,"count":0,"chapter":1,"name":"N","progress":0}"#, "control character"),
        (#"{"machine":"m","computer":"PC","readAt":1,"time":9007199254740992,"count":0,"chapter":1,"name":"N","progress":0}"#, "time 9007199254740992 is out of range"),
        (#"{"machine":"m","computer":"PC","readAt":1,"time":2,"count":-1,"chapter":1,"name":"N","progress":0}"#, "count -1 is out of range"),
        (#"{"machine":"m","computer":"PC","readAt":1,"time":2,"count":0,"chapter":0,"name":"N","progress":0}"#, "chapter 0 is out of range"),
        (#"{"machine":"m","computer":"PC","readAt":1,"time":2,"count":0,"chapter":1,"name":" ","progress":0}"#, "name is blank"),
        (#"{"machine":"m","computer":"PC","readAt":1,"time":2,"count":0,"chapter":1,"name":"N","progress":101}"#, "progress 101 is out of range"),
        (#"{"machine":"m","computer":"PC","readAt":1,"time":2,"count":0,"chapter":1,"name":"N","progress":0,"language":"xx"}"#, "language"),
        (#"{"machine":"m","#, "JSON"),
    ])
    func aBadRecordIsRefusedWithItsReason(json: String, reason: String) {
        let error = thrownError { () throws(ComicError) in try ReadingRecord.decode(Array(json.utf8)) }
        #expect(error?.message.contains(reason) == true || (reason == "JSON" && error != nil), "\(String(describing: error))")
    }

    @Test func aSavedReadingRoundTrips() throws {
        var a = ReadingSync(identity: Self.laptop, saved: nil)
        _ = Self.read(9, on: &a, at: Self.noon)
        #expect(try SavedReading.decode(a.saved.encodeJSON()) == a.saved)
        #expect(try SavedReading.decode(SavedReading(clock: ReadingClock(), current: nil).encodeJSON()).current == nil)
    }

    // MARK: The folder's names

    @Test func theSyncToolsOwnFilesAreNotRecords() {
        for name in ["machine-a.json", "3f2a9c_Laptop-1.json"] { #expect(SyncFolder.kind(of: name) == .record, "\(name)") }
        for name in ["machine-a.sync-conflict-20261128-150000-ABCDEFG.json", "machine-a (conflicted copy 2026-11-28 150000).json",
                     "machine-a (Laptop's conflicted copy 2026-11-28).json"] {
            #expect(SyncFolder.kind(of: name) == .conflictCopy, "\(name)")
        }
        for name in [".syncthing.machine-a.json.tmp", "~syncthing~machine-a.json.tmp", ".~machine-a.json", "machine-a.json.part",
                     ".machine-a.json.123.abc.tmp", ".dropbox.cache", ".json", "notes.txt", "machine a.json", ".stfolder", "~machine-a.json"] {
            #expect(SyncFolder.kind(of: name) == .ignored, "\(name)")
        }
    }

    @Test func aRecordIsWrittenAtomicallyAndReadBackBounded() throws {
        try withTemporaryDirectory { path in
            let folder = SyncFolder(path: path)
            var a = ReadingSync(identity: Self.laptop, saved: nil)
            let record = Self.read(12, on: &a, at: Self.noon)
            try folder.write(record)
            #expect(folder.readableNames() == ["machine-a.json"], "no temporary file left")
            #expect(folder.readRecord("machine-a.json").value == record)
            var status = stat()
            #expect(stat(path + "/machine-a.json", &status) == 0 && status.st_mode & 0o777 == 0o600)
            let big = [UInt8](repeating: 0x20, count: 10 * 1024 * 1024)
            try writeFile(path + "/machine-x.json", big)
            guard case .invalid(let reason) = folder.readRecord("machine-x.json") else { Issue.record("a 10 MB record was read"); return }
            #expect(reason.contains("10485760 bytes, more than 65536"), "\(reason)")
            #expect(symlink(path + "/machine-a.json", path + "/machine-l.json") == 0)
            guard case .invalid(let link) = folder.readRecord("machine-l.json") else { Issue.record("a symlink was followed"); return }
            #expect(link.contains("symbolic link"))
            #expect(throws: ComicError.self) { try SyncFolder(path: path + "/missing").write(record) }
            #expect(access(path + "/missing", F_OK) != 0, "the folder is never created")
        }
    }

    // MARK: The computer

    @Test func theMachineIDIsDerivedAndOverridable() throws {
        let one = ComputerIdentity.derivedMachineID(systemID: "0123456789abcdef0123456789abcdef", hostName: "laptop")
        let clone = ComputerIdentity.derivedMachineID(systemID: "0123456789abcdef0123456789abcdef", hostName: "desktop")
        #expect(one.count == 16 && one != clone, "a clone with another host name is another computer")
        #expect(!one.contains("0123456789abcdef"), "the system's id is not written out")
        #expect(try ComputerIdentity.current(environment: ["DBMULTIVERSE_MACHINE_ID": "test-1"], config: ConfigFile(text: "")).machine == "test-1")
        #expect(throws: ComicError.self) { try ComputerIdentity.current(environment: ["DBMULTIVERSE_MACHINE_ID": "../x"], config: ConfigFile(text: "")) }
        try withTemporaryDirectory { root in
            #expect(mkdir(root + "/etc", 0o700) == 0)
            try writeFile(root + "/etc/machine-id", "0123456789abcdef0123456789abcdef\n")
            try writeFile(root + "/etc/machine-info", "PRETTY_HOSTNAME=\"Anna's Laptop\"\n")
            let identity = try ComputerIdentity.current(environment: [:], config: ConfigFile(text: ""), root: root)
            #expect(identity.name == "Anna's Laptop")
            #expect(identity.machine == ComputerIdentity.derivedMachineID(systemID: "0123456789abcdef0123456789abcdef", hostName: ComputerIdentity.hostName()))
            #expect(try ComputerIdentity.current(environment: [:], config: ConfigFile(text: "computer-name = Desk\n"), root: root).name == "Desk")
        }
    }

    // MARK: The config file

    @Test func settingTheSyncFolderKeepsTheRestOfTheFile() {
        let text = "# mine\nlanguage = fr\nsync-folder = /old\n\nsync-folder = /older\ntray = no\n"
        #expect(ConfigFile.text(text, setting: "sync-folder", to: "/new") == "# mine\nlanguage = fr\n\nsync-folder = /new\ntray = no\n")
        #expect(ConfigFile.text(text, setting: "sync-folder", to: nil) == "# mine\nlanguage = fr\n\ntray = no\n")
        #expect(ConfigFile.text("language = fr", setting: "sync-folder", to: "/s") == "language = fr\nsync-folder = /s\n")
        #expect(ConfigFile.text("# sync-folder = /x\n", setting: "sync-folder", to: nil) == "# sync-folder = /x\n", "comments stay")
        #expect(ConfigFile(text: "sync-folder = ~/Sync/dbm").syncFolder(home: "/home/r").folder?.path == "/home/r/Sync/dbm")
        #expect(ConfigFile(text: "sync-folder = Sync").syncFolder(home: "/home/r").problem?.contains("absolute") == true)
        #expect(ConfigFile(text: "sync-folder =").syncFolder(home: "/home/r") == (nil, nil))
    }
}
