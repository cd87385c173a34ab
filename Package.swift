// swift-tools-version:6.0
import PackageDescription

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
        // The typed libdbus binding: names, values, messages, connection, event loop, object export.
        // Knows nothing of comics and needs no Foundation.
        .target(name: "DBus", dependencies: ["CDBus", "CLinuxEvents"]),
        // The comic domain: entry, storage, sync rules, deep links. Knows nothing of D-Bus.
        .target(name: "ComicDomain"),
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
                "Desktop", "DBus", "ComicDomain",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Shared test helpers: the private dbus-daemon fixture, running stock tools, timeouts.
        // Test-only, so Foundation's Process is fine here.
        .target(name: "DBusTestSupport", dependencies: ["DBus"]),
        // A sample object served on the bus: activated by the binding's tests, measured idle.
        .executableTarget(name: "dbus-sample-service", dependencies: ["DBus", "DBusTestSupport"]),
        // `make bench`: the benchmark of the release-built service and notifier on a private bus.
        .executableTarget(
            name: "dbmultiverse-bench",
            dependencies: ["DBus", "Desktop", "ComicDomain", "DBusTestSupport"]
        ),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "DBusTestSupport"]),
        .testTarget(name: "ComicDomainTests", dependencies: ["ComicDomain"]),
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
