import Glibc

/// Atomic replacement of a file in a folder: a crash at any moment leaves the old or the new
/// content, never a torn file, and the target is never followed if it is a symlink.
enum AtomicFile {
    /// Replaces each `directory/name` with its `bytes`, mode 0600, as one step as far as a rename
    /// allows: every file is written first, then they are renamed into place in the given order.
    ///
    /// Each new file is a temporary `.<name>.<pid>.<random>.tmp` in the same folder
    /// (`O_CREAT|O_EXCL|O_NOFOLLOW`), written and fsynced; only when all are, each is renamed over
    /// its target (rename replaces a symlink rather than following it), and the folder is fsynced
    /// once so the renames are durable. If writing any fails, no target is touched and every
    /// temporary file is removed.
    /// - Throws: `storageFailed` with the failing step and the system's error text.
    static func replace(_ files: [(name: String, bytes: [UInt8])], in directory: String) throws(ComicError) {
        let dirfd: Int32
        switch Posix.openAt(AT_FDCWD, directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) {
        case .success(let fd): dirfd = fd
        case .failure(let error): throw failure("cannot open the folder of", directory + "/" + (files.first?.name ?? ""), error)
        }
        defer { close(dirfd) }

        var staged: [(temporary: String, name: String)] = []
        defer { for file in staged { unlinkat(dirfd, file.temporary, 0) } } // whatever was not renamed
        for file in files {
            staged.append((try stage(file.bytes, for: file.name, in: dirfd, target: directory + "/" + file.name), file.name))
        }
        while !staged.isEmpty {
            let file = staged[0]
            guard renameat(dirfd, file.temporary, dirfd, file.name) == 0 else {
                throw failure("cannot rename the temporary file over", directory + "/" + file.name, Errno(errno))
            }
            staged.removeFirst()
        }
        if case .failure(let error) = Posix.sync(dirfd) {
            throw failure("cannot sync the folder of", directory + "/" + (files.last?.name ?? ""), error)
        }
    }

    /// Writes `bytes` to a new temporary file for `name` and fsyncs it; returns its name.
    private static func stage(_ bytes: [UInt8], for name: String, in dirfd: Int32, target: String) throws(ComicError) -> String {
        let (temporary, fd) = try createTemporary(for: name, in: dirfd, target: target)
        var failed: (step: String, error: Errno)?
        if case .failure(let error) = Posix.writeAll(fd, bytes) {
            failed = ("cannot write", error)
        } else if case .failure(let error) = Posix.sync(fd) {
            failed = ("cannot sync", error)
        }
        // close can report a deferred write error (e.g. on NFS), so it is checked too.
        if close(fd) != 0, failed == nil { failed = ("cannot close", Errno(errno)) }
        if let failed {
            unlinkat(dirfd, temporary, 0)
            throw failure(failed.step, target, failed.error)
        }
        return temporary
    }

    /// Removes `directory/name`; a missing file is fine.
    /// - Throws: `storageFailed` for any other failure.
    static func remove(_ name: String, in directory: String) throws(ComicError) {
        let target = directory + "/" + name
        guard unlink(target) == 0 else {
            let code = errno
            if code == ENOENT { return }
            throw failure("cannot remove", target, Errno(code))
        }
    }

    /// The pid in a temporary file name made by `createTemporary` for one of the folder's files
    /// (`.<name>.<pid>.<random>.tmp`), or nil for any other name.
    static func writerPID(ofTemporary temporary: String) -> pid_t? {
        guard temporary.hasPrefix("."), temporary.hasSuffix(".tmp") else { return nil }
        // ".<name>.<pid>.<random>.tmp": the last two fields before ".tmp" are the pid and the random part.
        let fields = temporary.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard fields.count >= 3 else { return nil }
        let name = fields.dropLast(2).joined(separator: ".")
        guard DataFolder.isStorageFile(name), let pid = pid_t(fields[fields.count - 2]), pid > 0 else { return nil }
        let random = fields[fields.count - 1]
        guard !random.isEmpty, random.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLowercase) }) else { return nil }
        return pid
    }

    /// Creates a fresh temporary file; a name clash (EEXIST) retries with another name.
    private static func createTemporary(for name: String, in dirfd: Int32, target: String) throws(ComicError) -> (String, Int32) {
        let flags = O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC
        var lastError = Errno(EEXIST)
        for _ in 0..<16 {
            let temporary = ".\(name).\(getpid()).\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).tmp"
            switch Posix.openAt(dirfd, temporary, flags, 0o600) {
            case .success(let fd):
                // The umask can only remove bits; make sure it is exactly 0600.
                if fchmod(fd, 0o600) != 0 {
                    let error = Errno(errno)
                    close(fd)
                    unlinkat(dirfd, temporary, 0)
                    throw failure("cannot set the mode of a temporary file for", target, error)
                }
                return (temporary, fd)
            case .failure(let error):
                lastError = error
                if error.code != EEXIST { throw failure("cannot create a temporary file for", target, error) }
            }
        }
        throw failure("cannot create a temporary file for", target, lastError)
    }

    private static func failure(_ step: String, _ path: String, _ error: Errno) -> ComicError {
        ComicError(.storageFailed, "\(step) \(path): \(error.text)")
    }
}
