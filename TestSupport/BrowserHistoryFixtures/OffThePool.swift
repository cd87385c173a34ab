import DBusTestSupport
import Foundation

// The fixtures' blocking calls, for tests: the same, awaited off the cooperative pool
// (DBusTestSupport's offThePool).

extension ProfileHome {
    @discardableResult
    package func addFirefoxProfile(_ folder: String, firefoxHome: String = ".mozilla/firefox", at location: String? = nil,
                                  visits: [PageVisit]) async throws -> String {
        try await offThePool { try self.addFirefoxProfile(folder, firefoxHome: firefoxHome, at: location, visits: visits) }
    }

    @discardableResult
    package func addChromiumProfile(_ profile: String, userData: String, visits: [PageVisit]) async throws -> String {
        try await offThePool { try self.addChromiumProfile(profile, userData: userData, visits: visits) }
    }
}

extension HistoryDatabases {
    package static func write(_ format: FixtureFormat, at path: String, visits: [PageVisit]) async throws {
        try await offThePool { try write(format, at: path, visits: visits) }
    }

    @discardableResult
    package static func run(_ script: String, on path: String, timeout: Double = 60) async throws -> String {
        try await offThePool { try run(script, on: path, timeout: timeout) }
    }
}

extension SQLiteHolder {
    /// Starts a holder (see `init`), waiting for it off the pool.
    package static func start(database: String, setup: String) async throws -> SQLiteHolder {
        try await offThePool { try SQLiteHolder(database: database, setup: setup) }
    }
}
