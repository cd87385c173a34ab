@testable import ComicDomain
import Glibc
import Testing

/// Runs `body`, returning the `ComicError` it throws (nil when it does not throw).
func thrownError<T>(_ body: () throws(ComicError) -> T) -> ComicError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// A fresh directory from `mkdtemp`, removed with everything in it at the end of `body`.
/// `body` with a data folder in a temporary directory of its own, removed afterwards.
func withDataFolder<T>(_ body: (DataFolder) throws -> T) throws -> T {
    try withTemporaryDirectory { try body(DataFolder(path: $0)) }
}

func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let base = ProcessInfoLite.temporaryBase()
    var template = Array((base + "/comicdomain-test-XXXXXX").utf8CString)
    let created = template.withUnsafeMutableBufferPointer { buffer in
        mkdtemp(buffer.baseAddress!)
    }
    guard created != nil else {
        throw TestFailure("mkdtemp failed: \(String(cString: strerror(errno)))")
    }
    let path = String(decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { removeTree(path) }
    return try body(path)
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum ProcessInfoLite {
    static func temporaryBase() -> String {
        if let tmp = getenv("TMPDIR") {
            let value = String(cString: tmp)
            if value.hasPrefix("/") { return value }
        }
        return "/tmp"
    }
}

/// Removes `path` and, for a real directory, its content (symlinks are removed, not followed).
func removeTree(_ path: String) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    if status.st_mode & S_IFMT == S_IFDIR {
        chmod(path, 0o700)
        if let dir = opendir(path) {
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(dir)
            for name in names { removeTree(path + "/" + name) }
        }
        rmdir(path)
    } else {
        unlink(path)
    }
}

/// Writes `bytes` to `path` (created or truncated, mode 0600).
func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw TestFailure("cannot create \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    guard written == bytes.count else { throw TestFailure("short write to \(path)") }
}

func writeFile(_ path: String, _ text: String) throws {
    try writeFile(path, Array(text.utf8))
}

/// The whole content of `path`, or nil.
func readFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        out += buffer[0..<count]
    }
    return out
}

/// `lstat` of `path`, or nil.
func fileStatus(_ path: String) -> stat? {
    var status = stat()
    return lstat(path, &status) == 0 ? status : nil
}

/// The names in directory `path`, sorted, without `.` and `..`.
func directoryEntries(_ path: String) -> [String] {
    guard let dir = opendir(path) else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

