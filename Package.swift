// swift-tools-version:6.0
import PackageDescription
#if canImport(Glibc)
import Glibc
#endif

/// How the release binary is linked on Linux, to keep the long-running service and notifier small
/// in memory (issue #6; figures in README's benchmark section):
/// - lld, laying out the functions they run first (`linker/dbmultiverse.order`, made by
///   `scripts/symbol-order.sh`), so the pages the kernel maps around them hold code that runs;
/// - relative relocations packed (DT_RELR), so the loader does not read ~900 KB of relocation
///   records at every start. Needs glibc 2.36 at run time, so only where the build's glibc has it.
let releaseLinkerFlags: [String] = {
    #if os(Linux)
    var flags = [
        "-use-ld=lld",
        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/linker/dbmultiverse.order",
        "-Xlinker", "--no-warn-symbol-ordering", // stale names in the order file are harmless
    ]
    var text = [CChar](repeating: 0, count: 64) // "glibc 2.36"
    _ = confstr(Int32(_CS_GNU_LIBC_VERSION), &text, text.count)
    let version = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
    if version.count >= 2, (version[0], version[1]) >= (2, 36) {
        flags += ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]
    }
    return flags
    #else
    return []
    #endif
}()

let package = Package(
    name: "DBMultiverseDesktop",
    products: [
        .executable(name: "dbmultiverse", targets: ["dbmultiverse"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // libdbus-1, as the system provides it. Only the `DBus` binding imports it.
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // epoll, eventfd, signalfd and inotify, which Glibc's Swift module leaves out.
        .systemLibrary(name: "CLinuxEvents"),
        // SQLite, as the system provides it. Only `BrowserHistory` imports it.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // The typed libdbus binding: names, values, messages, connection, event loop, object export.
        // Knows nothing of comics and needs no Foundation.
        .target(name: "DBus", dependencies: ["CDBus", "CLinuxEvents"]),
        // The comic domain: entry, storage, sync rules, deep links. Knows nothing of D-Bus.
        .target(name: "ComicDomain"),
        // Browser history: finds Firefox and Chromium-family profiles and reads the newest visit
        // to a comic page from a private copy of their databases. Knows nothing of D-Bus or HTTP.
        .target(name: "BrowserHistory", dependencies: ["CSQLite", "ComicDomain"]),
        // The desktop layer: joins the domain to the bus (service, application, notifier, opener).
        .target(
            name: "Desktop",
            dependencies: [
                "DBus", "ComicDomain", "CLinuxEvents",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The thin command-line front end.
        .executableTarget(
            name: "dbmultiverse",
            dependencies: [
                "Desktop", "DBus", "ComicDomain", "BrowserHistory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            linkerSettings: [.unsafeFlags(releaseLinkerFlags, .when(platforms: [.linux], configuration: .release))]
        ),
        // Shared test helpers: the private dbus-daemon fixture, running stock tools, timeouts.
        // Test-only, so Foundation's Process is fine here.
        .target(name: "DBusTestSupport", dependencies: ["DBus"]),
        // A sample object served on the bus: activated by the binding's tests, measured idle.
        .executableTarget(name: "dbus-sample-service", dependencies: ["DBus", "DBusTestSupport"]),
        // The benchmark's reference peer: a minimal C libdbus service with the same reply.
        .executableTarget(name: "dbus-reference-service", dependencies: ["CDBus"]),
        // `make bench`: the benchmark of the release-built service and notifier on a private bus.
        .executableTarget(
            name: "dbmultiverse-bench",
            dependencies: ["DBus", "Desktop", "ComicDomain", "DBusTestSupport"]
        ),
        // Browser profiles with history databases in the browsers' real schemas, for the tests
        // and the history benchmark. Test-only, so Foundation's Process is fine here.
        .target(name: "BrowserHistoryFixtures", dependencies: ["DBusTestSupport"]),
        // `make bench-history`: the import-history lookup on a 100 000-visit history.
        .executableTarget(
            name: "dbmultiverse-history-bench",
            dependencies: ["BrowserHistory", "BrowserHistoryFixtures", "ComicDomain"]
        ),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "DBusTestSupport"]),
        .testTarget(name: "ComicDomainTests", dependencies: ["ComicDomain"]),
        .testTarget(
            name: "BrowserHistoryTests",
            dependencies: ["BrowserHistory", "BrowserHistoryFixtures", "ComicDomain", "DBusTestSupport"]
        ),
        .testTarget(
            name: "DesktopTests",
            dependencies: ["Desktop", "DBus", "ComicDomain", "DBusTestSupport"]
        ),
    ]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
