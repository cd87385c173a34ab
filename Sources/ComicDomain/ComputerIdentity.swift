import Glibc

/// Which computer this is, for the sync folder (docs/sync.md): the machine id its record is named
/// by, and the name people read ("Continued on Laptop").
package struct ComputerIdentity: Sendable, Equatable {
    /// The environment variable that sets the machine id (tests, or a reader with two sessions).
    package static let environmentVariable = "DBMULTIVERSE_MACHINE_ID"
    /// The config file's key for the name people read.
    static let nameKey = "computer-name"

    /// 1 to 64 ASCII letters, digits, `-` or `_`: the record's file name is `<machine>.json`.
    package let machine: String
    /// This computer's name for people.
    package let name: String

    package init(machine: String, name: String) {
        self.machine = machine
        self.name = name
    }

    /// This computer: the machine id `$DBMULTIVERSE_MACHINE_ID`, else one made from
    /// `/etc/machine-id` and the host name (computers cloned from one image share the first, rarely
    /// the second); the name `computer-name` from the config file, else the pretty host name
    /// (`/etc/machine-info`'s `PRETTY_HOSTNAME`, what GNOME's settings call the device name), else
    /// the host name. `root` prefixes the system files read (tests).
    /// - Throws: `storageFailed` when `$DBMULTIVERSE_MACHINE_ID` is not a machine id, or when there
    ///   is neither it nor a machine id in `/etc/machine-id` (or `/var/lib/dbus/machine-id`).
    package static func current(environment: [String: String], config: ConfigFile, root: String = "") throws(ComicError) -> ComputerIdentity {
        let host = hostName()
        let machine: String
        if let chosen = environment[environmentVariable], !chosen.isEmpty {
            guard isValidMachineID(chosen) else {
                throw ComicError(.storageFailed, "\(environmentVariable)=\(quotedForMessage(chosen)) is not a machine id (1 to 64 letters, digits, - or _)")
            }
            machine = chosen
        } else {
            guard let systemID = ["/etc/machine-id", "/var/lib/dbus/machine-id"].lazy.compactMap({ readMachineID(root + $0) }).first else {
                throw ComicError(.storageFailed, "this computer has no machine id in /etc/machine-id: set \(environmentVariable)")
            }
            machine = derivedMachineID(systemID: systemID, hostName: host)
        }
        var name = config[nameKey].flatMap { try? validName($0) }
        if name == nil { name = prettyHostName(root + "/etc/machine-info").flatMap { try? validName($0) } }
        return ComputerIdentity(machine: machine, name: name ?? (try? validName(host)) ?? machine)
    }

    /// The id of this computer's record: 16 hexadecimal digits of FNV-1a (64 bits) over the
    /// program's name, the system's machine id and the host name. Not the machine id itself,
    /// which machine-id(5) asks programs to keep to themselves: 64 bits of a hash of 128 secret
    /// bits do not give them back.
    static func derivedMachineID(systemID: String, hostName: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "dbmultiverse\u{0}\(systemID)\u{0}\(hostName)".utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Whether `text` can name a record: 1 to 64 of `A-Z a-z 0-9 - _`.
    static func isValidMachineID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.utf8.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    /// A computer's name as shown: trimmed, 1 to 64 characters, no control characters (it goes into
    /// notifications and doctor's lines).
    /// - Throws: `storageFailed` otherwise.
    static func validName(_ text: String) throws(ComicError) -> String {
        let trimmed = ChapterData.trimmed(text)
        guard !trimmed.isEmpty, trimmed.count <= 64, trimmed.utf8.count <= 256 else {
            throw ComicError(.storageFailed, "computer \(quotedForMessage(text)) must have 1 to 64 characters")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ComicError(.storageFailed, "computer \(quotedForMessage(text)) holds a control character")
        }
        return trimmed
    }

    /// The kernel's host name ("" when it has none).
    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The 32 hexadecimal digits of a machine-id file, or nil.
    private static func readMachineID(_ path: String) -> String? {
        guard let text = readSmallFile(path) else { return nil }
        let id = text.split(whereSeparator: { $0 == "\n" || $0 == " " }).first.map(String.init) ?? ""
        guard id.utf8.count == 32, id.utf8.allSatisfy({ $0.isASCIIDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }),
              id != String(repeating: "0", count: 32) else { return nil }
        return id
    }

    /// `PRETTY_HOSTNAME` of a machine-info file (an environment-like file; quotes removed), or nil.
    private static func prettyHostName(_ path: String) -> String? {
        guard let text = readSmallFile(path) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_HOSTNAME=") {
            var value = line.dropFirst("PRETTY_HOSTNAME=".count)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = value.dropFirst().dropLast()
            }
            return value.isEmpty ? nil : String(value)
        }
        return nil
    }

    private static func readSmallFile(_ path: String) -> String? {
        guard case .success(let fd) = Posix.openAt(AT_FDCWD, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) else { return nil }
        defer { close(fd) }
        guard case .success(let status) = Posix.fileStatus(fd), Posix.isRegular(status.st_mode),
              case .success(let bytes) = Posix.readUpTo(fd, limit: 4096) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
