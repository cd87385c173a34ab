public import ComicDomain

/// Why the reading position could not be read from a browser's history: what went wrong, and a
/// precise message naming the file or value at fault.
public typealias HistoryError = KindedError<HistoryFailure>

/// The kinds of `HistoryError`.
public enum HistoryFailure: Sendable, Equatable, CaseIterable {
    /// A bad `--browser` name or `--profile` folder: the caller's mistake.
    case invalidArgument
    /// No profile of the chosen browsers was found.
    case noProfile
    /// A file could not be read or copied (permissions, I/O, no space for the copy).
    case unreadable
    /// The history database is over the size this command copies.
    case tooLarge
    /// The database kept changing while it was copied.
    case changing
    /// The file is not an SQLite database.
    case notADatabase
    /// The database is damaged.
    case corrupt
    /// The database lacks a table or column the lookup reads (another browser's file, or a
    /// browser version this command does not know).
    case unknownSchema
}
