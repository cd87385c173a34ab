import ComicDomain
import CSQLite

/// An SQLite failure: the result code and SQLite's message.
struct SQLiteError: Error, Sendable {
    /// The primary result code (`SQLITE_CORRUPT`, `SQLITE_NOTADB`…).
    let code: Int32
    let message: String
}

/// A connection to one database file, for reading (of a private copy: see `DatabaseCopy`).
/// One final class per C handle; the handle is closed when it goes.
final class SQLiteDatabase {
    private let handle: OpaquePointer

    /// Opens `path`, which must exist. Opened read-write so SQLite can apply a `-wal` or roll
    /// back a hot `-journal` beside it; nothing here writes otherwise. The schema is not trusted:
    /// views and triggers in the file cannot call functions with side effects.
    init(path: String) throws(SQLiteError) {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(opened)
            throw SQLiteError(code: code & 0xFF, message: message)
        }
        handle = opened
        _ = csqlite_skip_checkpoint_on_close(handle)
        try forEachRow("PRAGMA trusted_schema = OFF") { _ in true }
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Runs `sql` with `arguments` bound as text to `?1`, `?2`…, and calls `body` with each
    /// row until it returns false.
    func forEachRow(_ sql: String, _ arguments: [String] = [], _ body: (Row) -> Bool) throws(SQLiteError) {
        var prepared: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &prepared, nil) == SQLITE_OK, let statement = prepared else {
            throw lastError()
        }
        defer { sqlite3_finalize(statement) }
        for (offset, argument) in arguments.enumerated() {
            let bound = argument.withCString { csqlite_bind_transient_text(statement, Int32(offset + 1), $0, -1) }
            guard bound == SQLITE_OK else { throw lastError() }
        }
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                if !body(Row(statement: statement)) { return }
            case SQLITE_DONE:
                return
            default:
                throw lastError()
            }
        }
    }

    private func lastError() -> SQLiteError {
        SQLiteError(code: sqlite3_errcode(handle) & 0xFF, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// The current row of a running statement; valid only inside the `forEachRow` callback.
    struct Row {
        fileprivate let statement: OpaquePointer

        /// The column's text, or nil when it is NULL.
        func text(_ column: Int32) -> String? {
            guard let text = sqlite3_column_text(statement, column) else { return nil }
            return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
        }

        /// The column's value when it is stored as an integer, else nil.
        func integer(_ column: Int32) -> Int64? {
            sqlite3_column_type(statement, column) == SQLITE_INTEGER ? sqlite3_column_int64(statement, column) : nil
        }
    }
}
