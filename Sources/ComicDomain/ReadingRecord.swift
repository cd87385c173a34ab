import JSON

/// One computer's latest reading, as it stands in the sync folder (docs/sync.md): the file
/// `<machine>.json` that only that computer writes.
///
/// `{"machine":"…","computer":"Laptop","readAt":1795640000,"time":1795640000123,"count":0,
/// "chapter":50,"name":"…","progress":35,"page":1234,"language":"en"}` (`page`, `language` and
/// `universe` when known). Unknown keys are ignored; every value is checked with the entry's rules.
package struct ReadingRecord: Sendable, Equatable {
    /// The reading: chapter, name, progress, page, language, universe (never a cover: the cover
    /// file stays on the computer that has it).
    package let reading: ChapterData
    /// What orders it among the others.
    package let stamp: ReadingStamp
    /// The writer's name for people (`ComputerIdentity.name`): "Continued on Laptop".
    package let computer: String
    /// When it was read, Unix seconds, by the writer's clock (doctor's "last read").
    package let readAt: Int64

    /// The largest record read: a record is a few hundred bytes; this is the data file's limit.
    static let maxFileBytes = Limits.maxChapterFileBytes

    /// A record of `reading` (its cover left out).
    package init(reading: ChapterData, stamp: ReadingStamp, computer: String, readAt: Int64) {
        self.reading = reading.withoutCover
        self.stamp = stamp
        self.computer = computer
        self.readAt = readAt
    }

    /// Decodes a record file: one JSON object of at most `maxFileBytes`.
    /// - Throws: `storageFailed` for content problems, the value's kind for a value out of range.
    static func decode(_ bytes: [UInt8]) throws(ComicError) -> ReadingRecord {
        try decode(JSONObjectReader(bytes: bytes, limit: maxFileBytes))
    }

    /// Decodes a record from its JSON object (a file's, or the one inside `SavedReading`).
    static func decode(_ reader: JSONObjectReader) throws(ComicError) -> ReadingRecord {
        let machine = try reader.string("machine")
        guard ComputerIdentity.isValidMachineID(machine) else {
            throw ComicError(.storageFailed, "machine \(quotedForMessage(machine)) is not a machine id (1 to 64 letters, digits, - or _)")
        }
        let computer = try ComputerIdentity.validName(try reader.string("computer"))
        let stampRange = 0...Int(ReadingStamp.maxValue)
        let outOfRange = { (key: String) in { (written: String) in ComicError(.storageFailed, "\(key) \(shortened(written)) is out of range \(Limits.describe(stampRange))") } }
        let time = try reader.integer("time", in: stampRange, outOfRange: outOfRange("time"))
        let count = try reader.integer("count", in: stampRange, outOfRange: outOfRange("count"))
        let readAt = try reader.integer("readAt", in: stampRange, outOfRange: outOfRange("readAt"))
        let number = try reader.integer("chapter", in: Int.min...Int.max) { _ in ComicError(.invalidChapter, "chapter is not a number") }
        let reading = try ChapterData(
            validatingNumber: number, name: try reader.string("name"),
            progress: try reader.integer("progress", in: Int.min...Int.max) { _ in ComicError(.invalidProgress, "progress is not a number") },
            page: try reader.optionalInteger("page", in: Int.min...Int.max) { _ in ComicError(.invalidOption, "page is not a number") },
            language: try reader.optionalString("language"),
            universe: try reader.optionalInteger("universe", in: Int.min...Int.max) { _ in ComicError(.invalidOption, "universe is not a number") })
        return ReadingRecord(reading: reading, stamp: ReadingStamp(time: Int64(time), count: Int64(count), machine: machine),
                             computer: computer, readAt: Int64(readAt))
    }

    /// Compact JSON with a stable key order (see the type's format); `decode(encodeJSON()) == self`.
    package func encodeJSON() -> [UInt8] { jsonValue.serialized() }

    /// The record as a JSON object.
    var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("machine", .string(stamp.machine)),
            ("computer", .string(computer)),
            ("readAt", .integer(readAt)),
            ("time", .integer(stamp.time)),
            ("count", .integer(stamp.count)),
            ("chapter", .integer(reading.number)),
            ("name", .string(reading.name)),
            ("progress", .integer(reading.progress)),
        ]
        if let page = reading.page { members.append(("page", .integer(page))) }
        if let language = reading.language { members.append(("language", .string(language))) }
        if let universe = reading.universe { members.append(("universe", .integer(universe))) }
        return .object(members)
    }
}

extension ChapterData {
    /// Whether `other` is the same reading position: chapter (and universe), page, progress and
    /// language — what crosses between computers. The name and the cover do not count.
    package func isSamePosition(as other: ChapterData) -> Bool {
        number == other.number && universe == other.universe && page == other.page && progress == other.progress
            && language == other.language
    }

    /// The same data naming no cover.
    var withoutCover: ChapterData {
        coverImagePath.isEmpty ? self : (try? ChapterData(validatingNumber: number, name: name, progress: progress,
                                                          page: page, language: language, universe: universe)) ?? self
    }

    /// This reading as the local data: the stored cover kept when it is the same chapter
    /// (`stored`'s), none otherwise (covers do not cross).
    package func adopted(keepingCoverOf stored: ChapterData?) -> ChapterData {
        guard let stored, stored.number == number, stored.universe == universe, !stored.coverImagePath.isEmpty else { return withoutCover }
        return (try? ChapterData(validatingNumber: number, name: name, progress: progress, coverImagePath: stored.coverImagePath,
                                 page: page, language: language, universe: universe)) ?? withoutCover
    }
}
