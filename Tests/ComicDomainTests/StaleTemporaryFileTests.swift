@testable import ComicDomain
import Glibc
import Testing

/// A writer killed between creating its temporary file and the rename leaves `.<name>.<pid>.<r>.tmp`
/// behind; the service removes those at start so they never accumulate.
@Suite(.timeLimit(.minutes(1))) struct StaleTemporaryFileTests {
    /// The pid of a process that has exited and been reaped.
    private func deadPID() throws -> pid_t {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/true", nil, nil, argv, nil) == 0 else { throw TestFailure("posix_spawn failed") }
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        return pid
    }

    /// The pid of a child that has exited but is not reaped yet (a zombie), and the reaper.
    private func zombiePID() throws -> (pid_t, () -> Void) {
        let pid = try spawnTrue()
        // Wait for the exit without reaping it.
        var info = siginfo_t()
        _ = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
        return (pid, { var status: Int32 = 0; _ = waitpid(pid, &status, 0) })
    }

    private func spawnTrue() throws -> pid_t {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/true", nil, nil, argv, nil) == 0 else { throw TestFailure("posix_spawn failed") }
        return pid
    }

    private func touch(_ path: String) {
        let fd = open(path, O_CREAT | O_WRONLY, 0o600)
        if fd >= 0 { close(fd) }
    }

    @Test func removesOnlyTheTemporaryFilesOfWritersThatAreGone() throws {
        try withTemporaryDirectory { tmp in
            let folder = DataFolder(path: tmp)
            let dead = try deadPID()
            let (zombie, reap) = try zombiePID()
            defer { reap() }
            let stale = [".currentChapterData.json.\(dead).k3j9x.tmp", ".chapterCoverImage.jpg.\(dead).0.tmp",
                         ".widgetSyncState.json.\(dead).zz.tmp", ".currentChapterData.json.\(zombie).z0mb1e.tmp",
                         ".chapters-pt_BR.json.\(dead).q1.tmp", ".siteRequests.json.\(dead).q2.tmp"]
            let kept = [
                ".currentChapterData.json.\(getpid()).abc.tmp", // this process: a write in progress
                ".currentChapterData.json.1.abc.tmp", // a live process
                ".other.json.\(dead).abc.tmp", // not one of ours
                ".chapters-xx.json.\(dead).abc.tmp", // not a language of the site
                ".currentChapterData.json.\(dead).tmp", // not the pattern
                ".currentChapterData.json.x\(dead).abc.tmp",
                "currentChapterData.json",
            ]
            for name in stale + kept { touch(tmp + "/" + name) }
            #expect(Set(folder.removeStaleTemporaryFiles()) == Set(stale))
            for name in stale { #expect(access(tmp + "/" + name, F_OK) != 0, "\(name) left") }
            for name in kept { #expect(access(tmp + "/" + name, F_OK) == 0, "\(name) removed") }
            #expect(folder.removeStaleTemporaryFiles().isEmpty)
        }
    }

    @Test func aMissingFolderIsNothingToClean() {
        #expect(DataFolder(path: "/nonexistent-\(getpid())/dbm").removeStaleTemporaryFiles().isEmpty)
    }
}
