package import DBusTestSupport
import DesktopTestSupport
import Foundation

/// A user's surroundings for `dbmultiverse doctor`: a temporary home with its XDG folders (the
/// system's data and config folders point into it too, so nothing of this machine's installation
/// is read), and a folder of stand-ins for the desktop's tools that are not ours (`systemctl`,
/// `gsettings`, `crontab`) first on `PATH`, before /usr/bin (where the browsers are found). apt
/// reads its sources from the home's `system/apt/sources.list.d` (APT_CONFIG).
package final class DoctorHome: Sendable {
    package let home: String
    package let tools: String
    package let dataFolder: String
    package var configHome: String { home + "/.config" }
    package var dataHome: String { home + "/.local/share" }
    /// The folder apt (`apt-config`) reads its sources from in this home.
    package var aptSources: String { home + "/system/apt/sources.list.d" }
    /// What the stand-ins were asked, one line per call.
    package var toolCalls: String { (try? String(contentsOfFile: tools + "/calls.log", encoding: .utf8)) ?? "" }

    package init(dataFolder: String? = nil) throws {
        home = try makeTemporaryDirectory("dbm-doctor-home")
        tools = try makeTemporaryDirectory("dbm-doctor-tools", for: .programs)
        self.dataFolder = dataFolder ?? home + "/data"
        for folder in [configHome, dataHome, home + "/system/share", home + "/system/config", aptSources] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try "Dir::Etc::sourceparts \"\(aptSources)\";\n".write(toFile: home + "/system/apt.conf", atomically: true, encoding: .utf8)
    }

    package func remove() {
        try? FileManager.default.removeItem(atPath: home)
        try? FileManager.default.removeItem(atPath: tools)
    }

    /// Writes a stand-in `name` running `body` (sh), which logs its arguments first.
    package func standIn(_ name: String, _ body: String) throws {
        let path = tools + "/" + name
        try "#!/bin/sh\necho \"\(name) $*\" >> \"\(tools)/calls.log\"\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        guard chmod(path, 0o755) == 0 else { throw FixtureError("chmod \(path)") }
    }

    /// Writes `text` to `path` below the home, making its folders.
    package func write(_ text: String, to relativePath: String) throws {
        let path = home + "/" + relativePath
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The environment of the doctor (and of the notifier) in this home, on `bus`.
    package func environment(bus: PrivateBus) -> [String: String] { environment(busAddress: bus.address) }

    /// The environment of the doctor in this home, on the bus at `busAddress`.
    package func environment(busAddress: String) -> [String: String] {
        var environment = testEnvironment()
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        for name in ["XDG_CURRENT_DESKTOP", "XDG_RUNTIME_DIR"] { environment.removeValue(forKey: name) }
        environment["HOME"] = home
        // The select-cards doctor asks: the repository's, as no build tree has one beside its binary.
        environment["DBMULTIVERSE_SELECT_CARDS"] = repositoryRoot.path + "/desktop/select-cards"
        environment["XDG_CONFIG_HOME"] = configHome
        environment["XDG_DATA_HOME"] = dataHome
        environment["XDG_DATA_DIRS"] = home + "/system/share"
        environment["XDG_CONFIG_DIRS"] = home + "/system/config"
        environment["DBMULTIVERSE_DATA_DIR"] = dataFolder
        environment["PATH"] = tools + ":/usr/bin:/bin"
        environment["APT_CONFIG"] = home + "/system/apt.conf"
        environment["COLUMNS"] = "200"
        return environment
    }

    /// Runs the built `dbmultiverse doctor` with `arguments` in this home.
    package func doctor(_ arguments: String..., bus: PrivateBus) throws -> CommandResult {
        try runCommand([Binary.dbmultiverse, "doctor"] + arguments, environment: environment(bus: bus), timeout: 60)
    }
}

/// The lines of a text report: each check's line (`mark name: detail`) with its fix line, if any.
package struct DoctorLine: Sendable, CustomStringConvertible {
    package let mark: String
    package let name: String
    package let detail: String
    package let fix: String?
    package var description: String { "\(mark) \(name): \(detail)" + (fix.map { " | \($0)" } ?? "") }

    package static func parse(_ text: String) -> [DoctorLine] {
        var lines: [DoctorLine] = []
        for line in text.split(separator: "\n").map(String.init) {
            if line.hasPrefix("    "), let last = lines.popLast() {
                lines.append(DoctorLine(mark: last.mark, name: last.name, detail: last.detail, fix: String(line.dropFirst(4))))
            } else if let first = line.first, "✓✗–".contains(first), let colon = line.range(of: ": ") {
                lines.append(DoctorLine(mark: String(first), name: String(line[line.index(line.startIndex, offsetBy: 2)..<colon.lowerBound]),
                                        detail: String(line[colon.upperBound...]), fix: nil))
            }
        }
        return lines
    }
}

extension [DoctorLine] {
    package subscript(name: String) -> DoctorLine? { first { $0.name == name } }
}
