import Glibc
import JSON

/// The sync folder's rule (docs/sync.md) as a pure state machine, as `SyncEngine` is the widget's:
/// no I/O, no clock; the caller passes the time, reads and writes the files, and stores what it
/// returns.
///
/// - A local reading (an update call, a file another program wrote) is stamped when it is stored
///   (`localChanged`), by the hybrid logical clock: after everything this computer has seen.
/// - It is published — written as this computer's record — when the widget reloads for it
///   (`reloaded`), so with the entry's 2 s debounce and progress thresholds, not at every step.
/// - Every record seen in the folder moves the clock (`recordRead`); the greatest stamp of all
///   (ours included) is the reading everywhere: when another computer's is greater than the
///   current one, it is adopted, as if the reader had read it here.
package struct ReadingSync: Sendable {
    /// This computer.
    package let identity: ComputerIdentity
    package private(set) var clock: ReadingClock
    /// The reading the local position is: this computer's latest, or another's it adopted; nil
    /// before any.
    package private(set) var current: ReadingRecord?
    /// Whether `current` is this computer's and not written to its record yet.
    package private(set) var unpublished = false
    /// The usable records in the folder, by file name.
    package private(set) var records: [String: ReadingRecord] = [:]

    /// The state kept in the data folder between runs (`SavedReading`), or nothing the first time.
    package init(identity: ComputerIdentity, saved: SavedReading?) {
        self.identity = identity
        clock = saved?.clock ?? ReadingClock()
        current = saved?.current
    }

    /// What is kept between runs: written after each publication and adoption.
    package var saved: SavedReading { SavedReading(clock: clock, current: current) }

    /// Sharing starts (the service starts, or the sync folder is set) with `local` stored, its file
    /// last written at `storedAt` (Unix milliseconds). A position that is not the saved reading
    /// was read here while nothing shared it (the service stopped within the debounce, sharing was
    /// off, or it is the first time): it is stamped at `storedAt`, after what was seen before, and
    /// published at once — so the reading a computer made most recently wins when a second
    /// computer joins, not the one that joined last.
    /// - Returns: the record to write now, if any.
    package mutating func start(local: ChapterData?, storedAt: Int64, readAt: Int64) -> ReadingRecord? {
        guard let local, !isCurrent(local) else { return nil }
        current = ownRecord(local, now: storedAt, readAt: readAt)
        unpublished = false
        return current
    }

    /// `local` was stored here at `now` (Unix milliseconds; `readAt` in seconds): a reading of this
    /// computer unless it is the current position already (the echo of an adoption, a rename).
    /// Nothing stored (`nil`) leaves the reading as it is.
    package mutating func localChanged(_ local: ChapterData?, now: Int64, readAt: Int64) {
        guard let local, !isCurrent(local) else { return }
        current = ownRecord(local, now: now, readAt: readAt)
        unpublished = true
    }

    /// The widget reloaded: the record to write when the reading is this computer's and not yet
    /// published, else nil.
    package mutating func reloaded() -> ReadingRecord? {
        guard unpublished else { return nil }
        unpublished = false
        return current
    }

    /// The file `name` of the folder now holds `record` (nil: removed or unusable, which takes back
    /// nothing adopted from it). Returns the record to adopt when the greatest stamp of all is now
    /// another reading than the current one.
    package mutating func recordRead(_ name: String, _ record: ReadingRecord?) -> ReadingRecord? {
        records[name] = record
        guard let record else { return nil }
        clock.observe(record.stamp)
        guard current.map({ record.stamp > $0.stamp }) ?? true else { return nil }
        // A greater stamp for the same reading is the same position: it becomes the current one
        // (its stamp and computer), and the caller stores nothing new.
        current = record
        unpublished = false
        return record
    }

    /// Whether `local` is the current reading's position.
    func isCurrent(_ local: ChapterData) -> Bool {
        current?.reading.isSamePosition(as: local) ?? false
    }

    /// The name of the computer the current reading was made on when it is another one and `local`
    /// is that reading, else nil.
    package func continued(_ local: ChapterData?) -> String? {
        guard let current, current.stamp.machine != identity.machine, let local, isCurrent(local) else { return nil }
        return current.computer
    }

    private mutating func ownRecord(_ local: ChapterData, now: Int64, readAt: Int64) -> ReadingRecord {
        ReadingRecord(reading: local, stamp: clock.stamp(now: now, machine: identity.machine), computer: identity.name, readAt: readAt)
    }
}

/// What a computer keeps of the sync folder's rule between runs, in its data folder
/// (`syncedReading.json`): its clock and the reading its position is.
/// `{"time":1795640000123,"count":0,"reading":{…a record…}}`.
package struct SavedReading: Sendable, Equatable {
    package var clock: ReadingClock
    package var current: ReadingRecord?

    package init(clock: ReadingClock, current: ReadingRecord?) {
        self.clock = clock
        self.current = current
    }

    static func decode(_ bytes: [UInt8]) throws(ComicError) -> SavedReading {
        let reader = try JSONObjectReader(bytes: bytes, limit: ReadingRecord.maxFileBytes)
        let range = 0...Int(ReadingStamp.maxValue)
        let time = try reader.integer("time", in: range) { ComicError(.storageFailed, "time \(shortened($0)) is out of range") }
        let count = try reader.integer("count", in: range) { ComicError(.storageFailed, "count \(shortened($0)) is out of range") }
        var current: ReadingRecord?
        if let reading = reader.value["reading"], reading != .null {
            current = try ReadingRecord.decode(JSONObjectReader(object: reading, what: "reading"))
        }
        return SavedReading(clock: ReadingClock(time: Int64(time), count: Int64(count)), current: current)
    }

    func encodeJSON() -> [UInt8] {
        var members: [(key: String, value: JSONValue)] = [("time", .integer(clock.time)), ("count", .integer(clock.count))]
        if let current { members.append(("reading", current.jsonValue)) }
        return JSONValue.object(members).serialized()
    }
}

extension DataFolder {
    /// Reads `syncedReading.json`; see `ReadResult` for the outcomes.
    package func readSavedReading() -> ReadResult<SavedReading> {
        readFile(Self.syncedReadingFile, limit: ReadingRecord.maxFileBytes) { bytes throws(ComicError) in try SavedReading.decode(bytes) }
    }

    /// Atomically replaces `syncedReading.json` (mode 0600), creating the folder if needed.
    /// - Throws: `storageFailed`.
    package func writeSavedReading(_ saved: SavedReading) throws(ComicError) {
        try writeFile(Self.syncedReadingFile, bytes: saved.encodeJSON() + [0x0A])
    }

    /// When `currentChapterData.json` was last written, Unix milliseconds (nil when it is missing).
    package func chapterDataModified() -> Int64? {
        guard case .success(let status) = Posix.pathStatus(chapterDataPath, followLinks: false) else { return nil }
        return Int64(status.st_mtim.tv_sec) * 1000 + Int64(status.st_mtim.tv_nsec) / 1_000_000
    }
}
