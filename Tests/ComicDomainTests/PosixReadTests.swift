@testable import ComicDomain
import Glibc
import Testing

/// `Posix.readUpTo`: every file the processes read goes through it, under a limit that is a bound
/// (1 MiB for a catalogue, 8 MiB for a cover), not the size of what is read.
@Suite("Reading up to a limit", .timeLimit(.minutes(1)))
struct PosixReadTests {
    /// Writes `bytes` to a new file and reads it back from its start under `limit`.
    static func readBack(_ bytes: [UInt8], limit: Int) throws -> [UInt8] {
        try withTemporaryDirectory { folder in
            let path = folder + "/file"
            try writeFile(path, bytes)
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            try #require(fd >= 0)
            defer { close(fd) }
            switch Posix.readUpTo(fd, limit: limit) {
            case .success(let read): return read
            case .failure(let error): throw error
            }
        }
    }

    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) } }

    @Test(arguments: [0, 1, 2_000, 16 * 1024, 16 * 1024 + 1, 300_000])
    func aFileUnderTheLimitIsReadWhole(size: Int) throws {
        let bytes = Self.pattern(size)
        #expect(try Self.readBack(bytes, limit: 1 << 20) == bytes)
    }

    @Test(arguments: [1, 4_096, 16 * 1024, 100_000])
    func aLongerOneStopsAtTheLimit(limit: Int) throws {
        let bytes = Self.pattern(limit + 5_000)
        #expect(try Self.readBack(bytes, limit: limit) == Array(bytes.prefix(limit)))
    }

    @Test func aFailedReadIsTheError() {
        let result = Posix.readUpTo(-1, limit: 10)
        guard case .failure(let error) = result else {
            Issue.record("read from fd -1 succeeded: \(result)")
            return
        }
        #expect(error.code == EBADF)
    }
}
