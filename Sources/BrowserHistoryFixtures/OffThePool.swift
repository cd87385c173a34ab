import Foundation

/// Runs `body`, which blocks (it waits for a process, or builds a database with one), on a
/// thread of its own while the calling task waits suspended. Tests run on Swift's cooperative
/// pool, one thread per core: a test blocking a pool thread stalls every other test's task,
/// and the suite's timing tests then fail.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}

// The fixtures' blocking calls, for tests: the same, awaited off the pool.

extension ProfileHome {
    @discardableResult
    public func addFirefoxProfile(_ folder: String, firefoxHome: String = ".mozilla/firefox", at location: String? = nil,
                                  visits: [PageVisit]) async throws -> String {
        try await offThePool { try self.addFirefoxProfile(folder, firefoxHome: firefoxHome, at: location, visits: visits) }
    }

    @discardableResult
    public func addChromiumProfile(_ profile: String, userData: String, visits: [PageVisit]) async throws -> String {
        try await offThePool { try self.addChromiumProfile(profile, userData: userData, visits: visits) }
    }
}

extension HistoryDatabases {
    public static func write(_ format: FixtureFormat, at path: String, visits: [PageVisit]) async throws {
        try await offThePool { try write(format, at: path, visits: visits) }
    }

    @discardableResult
    public static func run(_ script: String, on path: String, timeout: Double = 60) async throws -> String {
        try await offThePool { try run(script, on: path, timeout: timeout) }
    }
}

extension SQLiteHolder {
    /// Starts a holder (see `init`), waiting for it off the pool.
    public static func start(database: String, setup: String) async throws -> SQLiteHolder {
        try await offThePool { try SQLiteHolder(database: database, setup: setup) }
    }
}
