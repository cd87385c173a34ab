import DBusTestSupport
package import Foundation
import Glibc

/// One real Syncthing (Debian's `syncthing`) with a home of its own: its own key and device id,
/// listening on 127.0.0.1 only, with global and local discovery, relays, NAT traversal, usage
/// reporting, crash reports and upgrades off, sharing one folder with its peer, rescanned by its
/// file-system watcher (1 s delay). Configured by writing its `config.xml` (its REST API on
/// 127.0.0.1 with an API key of the test's own) before it starts; stopped by SIGTERM, killed if it
/// lingers.
package final class SyncthingDevice {
    package let home: String
    /// The shared folder on this device.
    package let folder: String
    package let deviceID: String
    package let listenPort: UInt16
    package let guiPort: UInt16
    private(set) var process: StreamingCommand?
    package static let apiKey = "dbmultiverse-test-\(UInt64.random(in: 1...UInt64.max))"
    package static let folderID = "dbmultiverse"

    /// Makes the device's key and certificate (`syncthing generate`) in `home`.
    package init(home: String, folder: String) throws {
        self.home = home
        self.folder = folder
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let generate = try runCommand(["syncthing", "generate", "--home=\(home)", "--no-default-folder"], environment: Self.environment(home))
        guard generate.status == 0 else { throw FixtureError("syncthing generate: \(generate)") }
        let id = try runCommand(["syncthing", "serve", "--home=\(home)", "--device-id"], environment: Self.environment(home))
        deviceID = id.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard id.status == 0, deviceID.count > 50 else { throw FixtureError("syncthing --device-id: \(id)") }
        listenPort = try freeLoopbackPort()
        guiPort = try freeLoopbackPort()
    }

    deinit { stop() }

    /// Writes the configuration: the folder shared with `peer`, everything else off.
    package func configure(peer: SyncthingDevice, name: String) throws {
        let device = { (device: SyncthingDevice, name: String) in
            """
                <device id="\(device.deviceID)" name="\(name)" compression="metadata" introducer="false">
                    <address>tcp://127.0.0.1:\(device.listenPort)</address>
                </device>
            """
        }
        let config = """
            <configuration version="36">
                <folder id="\(Self.folderID)" label="dbmultiverse" path="\(folder)" type="sendreceive" rescanIntervalS="3600"
                        fsWatcherEnabled="true" fsWatcherDelayS="1" ignorePerms="false" autoNormalize="true">
                    <filesystemType>basic</filesystemType>
                    <device id="\(deviceID)"></device>
                    <device id="\(peer.deviceID)"></device>
                    <minDiskFree unit="%">0</minDiskFree>
                </folder>
            \(device(self, name))
            \(device(peer, "peer"))
                <gui enabled="true" tls="false">
                    <address>127.0.0.1:\(guiPort)</address>
                    <apikey>\(Self.apiKey)</apikey>
                </gui>
                <options>
                    <listenAddress>tcp://127.0.0.1:\(listenPort)</listenAddress>
                    <globalAnnounceEnabled>false</globalAnnounceEnabled>
                    <localAnnounceEnabled>false</localAnnounceEnabled>
                    <relaysEnabled>false</relaysEnabled>
                    <natEnabled>false</natEnabled>
                    <urAccepted>-1</urAccepted>
                    <crashReportingEnabled>false</crashReportingEnabled>
                    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
                    <startBrowser>false</startBrowser>
                    <reconnectionIntervalS>1</reconnectionIntervalS>
                    <minHomeDiskFree unit="%">0</minHomeDiskFree>
                </options>
            </configuration>
            """
        try config.write(toFile: home + "/config.xml", atomically: true, encoding: .utf8)
    }

    /// Starts it (in the foreground: `--no-restart` runs no monitor process that could outlive it).
    package func start() throws {
        precondition(process == nil)
        process = try StreamingCommand(
            ["sh", "-c", "exec \"$@\" 2>&1", "sh", "syncthing", "serve", "--home=\(home)", "--no-browser", "--no-restart",
             "--no-upgrade", "--logflags=0"],
            environment: Self.environment(home))
    }

    /// Waits until it is connected to `peer` (its log says so).
    package func waitForConnection(to peer: SyncthingDevice, from start: Int = 0, timeout: TimeInterval = 20) throws {
        let short = String(peer.deviceID.prefix(7))
        _ = try process?.waitForLine(from: start, timeout: timeout, "syncthing's connection to \(short)") {
            $0.contains("Established secure connection to \(short)")
        }
    }

    /// How many lines it has logged (to wait for a later one).
    package var logCount: Int { process?.output.count ?? 0 }

    /// Stops it: SIGTERM, then SIGKILL after 10 s; waits for the exit.
    package func stop() {
        guard let process else { return }
        self.process = nil
        if (try? process.terminate(SIGTERM, timeout: 10)) == nil { process.stop() }
    }

    private static func environment(_ home: String) -> [String: String] {
        var environment = testEnvironment()
        environment["HOME"] = home
        environment["STNOUPGRADE"] = "1"
        environment["STNODEFAULTFOLDER"] = "1"
        return environment
    }
}

/// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's choice for port 0).
package func freeLoopbackPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw FixtureError("socket: \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw FixtureError("bind 127.0.0.1:0: \(String(cString: strerror(errno)))") }
    return UInt16(bigEndian: address.sin_port)
}
