package import ComicDomain

/// Why the reading position could not be read from a browser's history: what went wrong, and a
/// precise message naming the file or value at fault.
package typealias HistoryError = KindedError<HistoryFailure>

/// The kinds of `HistoryError`:
/// - `invalidArgument`: a bad `--browser` name or `--profile` folder, the caller's mistake;
/// - `noProfile`: no profile of the chosen browsers was found;
/// - `unreadable`: a file could not be read or copied (permissions, I/O, no space for the copy);
/// - `tooLarge`: the history database is over the size this command copies;
/// - `changing`: the database kept changing while it was copied;
/// - `notADatabase`, `corrupt`: the file is not an SQLite database, or a damaged one;
/// - `unknownSchema`: the database lacks a table or column the lookup reads (another browser's
///   file, or a browser version this command does not know).
package enum HistoryFailure: Sendable, Equatable, CaseIterable {
    case invalidArgument, noProfile, unreadable, tooLarge, changing, notADatabase, corrupt, unknownSchema
}
