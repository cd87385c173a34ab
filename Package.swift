// swift-tools-version:6.0
import PackageDescription
#if canImport(Glibc)
import Glibc
#endif

/// How the release binary is linked on Linux, to keep the long-running service and notifier small
/// in memory (figures in docs/benchmarks.md), where the toolchain has lld (swift.org's toolchains
/// and Debian's swiftlang have it beside their clang; elsewhere the toolchain's default linker,
/// without these):
/// - lld, laying out the functions they run first (`linker/dbmultiverse.order`, made by
///   `scripts/dev/symbol-order.sh`), so the pages the kernel maps around them hold code that runs;
/// - relative relocations packed (DT_RELR), so the loader does not read ~900 KB of relocation
///   records at every start. Needs glibc 2.36 at run time, so only where the build's glibc has it.
let releaseLinkerFlags: [String] = {
    #if os(Linux)
    guard let toolchain = toolchainPrograms(), access(toolchain + "/ld.lld", X_OK) == 0 else { return [] }
    var flags = [
        "-use-ld=lld",
        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/linker/dbmultiverse.order",
        "-Xlinker", "--no-warn-symbol-ordering", // stale names in the order file are harmless
    ]
    var text = [CChar](repeating: 0, count: 64) // "glibc 2.36"
    _ = confstr(Int32(_CS_GNU_LIBC_VERSION), &text, text.count)
    let version = string(text).split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
    if version.count >= 2, (version[0], version[1]) >= (2, 36) {
        flags += ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]
    }
    return flags
    #else
    return []
    #endif
}()

/// The folder of the toolchain's own programs (swift, clang, ld.lld: `usr/bin` of a swift.org
/// toolchain, `/usr/libexec/swift/bin` of Debian's swiftlang): four levels up from where this
/// manifest's PackageDescription library was loaded (`lib/swift/pm/ManifestAPI`), beside `bin`.
func toolchainPrograms() -> String? {
    #if os(Linux)
    guard let maps = fopen("/proc/self/maps", "r") else { return nil }
    defer { fclose(maps) }
    var line = [CChar](repeating: 0, count: 4096)
    while fgets(&line, Int32(line.count), maps) != nil {
        let text = string(line).split(separator: "\n").first ?? ""
        guard text.hasSuffix("/libPackageDescription.so"), let slash = text.firstIndex(of: "/") else { continue }
        var folder = String(text[slash...])
        for _ in 0..<5 { folder = String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)]) }
        return folder + "/bin"
    }
    return nil
    #else
    return nil
    #endif
}

/// A C buffer's text, up to its first NUL.
func string(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The C targets' flags from the environment, as build systems take them: CPPFLAGS and CFLAGS
/// (a Debian package build's hardening flags, from dpkg-buildflags). Given to the C targets only:
/// passed with `swift build -Xcc` they would also reach Swift's importer of C headers, where glibc
/// 2.40's fortified declarations (`-D_FORTIFY_SOURCE`) make `readlink` ambiguous to Swift.
let environmentCFlags: [String] = ["CPPFLAGS", "CFLAGS"].flatMap { name -> [String] in
    #if canImport(Glibc)
    guard let value = getenv(name) else { return [] }
    return String(cString: value).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
    #else
    return []
    #endif
}

/// The service's and notifier's executables, which run all day: the release flags, and
/// - the C++ runtime the Swift runtime needs linked from its archive (`linker/static-libstdc++`
///   makes `-lstdc++` find `libstdc++.a`), not loaded as libstdc++.so.6: -0.7 MiB resident;
/// - no symbols exported to the dynamic symbol table (the toolchain's arguments export all of them,
///   and the loader then searches them at each relocation): -0.3 MiB.
/// Not for the CLI: it loads libxml2 with dlopen, whose ICU needs the shared libstdc++.
let longRunningLinkerFlags: [String] = {
    #if os(Linux)
    return releaseLinkerFlags + ["-L", "\(Context.packageDirectory)/linker/static-libstdc++", "-Xlinker", "--no-export-dynamic"]
    #else
    return releaseLinkerFlags
    #endif
}()

/// The C flags pkg-config gives for `module` (libxml2's headers live in their own folder), else
/// `fallback`. Only flags: the libraries are loaded with dlopen (see CSiteLibraries.h), not linked.
func pkgConfigCFlags(_ module: String, fallback: [String]) -> [String] {
    #if os(Linux)
    guard let pipe = popen("pkg-config --cflags \(module) 2>/dev/null", "r") else { return fallback }
    var output = [CChar](repeating: 0, count: 512)
    let line = fgets(&output, Int32(output.count), pipe).map { String(cString: $0) } ?? ""
    guard pclose(pipe) == 0 else { return fallback }
    let flags = line.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    return flags.isEmpty ? fallback : flags
    #else
    return fallback
    #endif
}

/// A package this one depends on: the copy in `vendor/<name>` when there is one (the source package
/// carries its pinned copies there, made by scripts/packaging/vendor.sh, so that it builds with the network
/// off, as distributions build), else the repository at `url`.
func dependency(_ url: String, from version: Version) -> Package.Dependency {
    let vendored = "\(Context.packageDirectory)/vendor/\(url.split(separator: "/").last ?? "")"
    #if canImport(Glibc)
    if access(vendored + "/Package.swift", F_OK) == 0 { return .package(path: vendored) }
    #endif
    return .package(url: url, from: version)
}

let package = Package(
    name: "DBMultiverseDesktop",
    products: [
        .executable(name: "dbmultiverse", targets: ["dbmultiverse"]),
        // The long-running processes' own executables, which link only what they run; installed in
        // libexec/dbmultiverse and run by `dbmultiverse service` and `dbmultiverse notifier` too.
        .executable(name: "dbmultiverse-service", targets: ["dbmultiverse-service"]),
        .executable(name: "dbmultiverse-notifier", targets: ["dbmultiverse-notifier"]),
        .executable(name: "dbmultiverse-browser-host", targets: ["dbmultiverse-browser-host"]),
    ],
    dependencies: [
        dependency("https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        dependency("https://github.com/apple/swift-log", from: "1.16.2"),
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
        // gettext (libintl.h, part of glibc), which Glibc's Swift module leaves out. Only
        // `Localization` imports it.
        .systemLibrary(name: "CIntl"),
        // The program's texts in the reader's language: gettext's setup and message functions.
        .target(name: "Localization", dependencies: ["CIntl"]),
        // The single-threaded epoll loop and the Linux event sources it drives (timers, signalfd,
        // inotify), and a thread to run one on. Knows nothing of D-Bus.
        .target(name: "EventLoop", dependencies: ["CLinuxEvents"]),
        // The typed libdbus binding: names, values, messages, connection, object export, typed
        // declarations and calls. Knows nothing of comics and needs no Foundation.
        .target(name: "DBus", dependencies: ["CDBus", "EventLoop"]),
        // JSON values: a strict parser and a compact writer, without Foundation.
        .target(name: "JSON"),
        // The comic domain: entry, storage, sync rules, deep links, the catalogue. Knows nothing
        // of D-Bus or HTTP.
        // The version comes from debian/changelog at build time (Plugins/ProjectVersion).
        .target(name: "ComicDomain", dependencies: ["JSON", "Localization"], plugins: ["ProjectVersion"]),
        .plugin(name: "ProjectVersion", capability: .buildTool()),
        // libcurl and libxml2 (Debian: libcurl4-openssl-dev, libxml2-dev), loaded with dlopen by
        // the commands that fetch, so the service and notifier never map them.
        .target(
            name: "CSiteLibraries",
            // DWARF 4: the toolchain's clang writes DWARF 5, which Debian 12's valgrind cannot read
            // (it gives up on the whole binary, and scripts/dev/symbol-order.sh and leak checks with it).
            cSettings: [.unsafeFlags(pkgConfigCFlags("libxml-2.0", fallback: ["-I/usr/include/libxml2"]) + environmentCFlags + ["-gdwarf-4"])]
        ),
        // The comic's site: HTTP with politeness, HTML/XML extraction, sync. Knows nothing of D-Bus.
        .target(name: "Site", dependencies: ["ComicDomain", "JSON", "EventLoop", "CSiteLibraries"]),
        // SQLite, as the system provides it. Only `BrowserHistory` imports it.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Browser history: finds Firefox and Chromium-family profiles and reads the newest visit
        // to a comic page from a private copy of their databases. Knows nothing of D-Bus or HTTP.
        .target(name: "BrowserHistory", dependencies: ["CSQLite", "ComicDomain"]),
        // JPEG and PNG into small ARGB32 pixmaps (the tray's cover), libjpeg and libpng loaded with
        // dlopen around each decode (see its header). DWARF 4: Debian 12's valgrind cannot read the
        // toolchain clang's DWARF 5.
        .target(name: "CImageDecoding", cSettings: [.unsafeFlags(environmentCFlags + ["-gdwarf-4"])]),
        // The widget on the bus, for both sides: Widget1 and org.freedesktop.Application declared
        // once, the entry's keys (EntryKeys), the entry's view (EntryView, EntryFormat), the typed
        // client (WidgetClient), the actions and launch context, the browser extension's ids, and
        // the shell of a long-running bus process (BusProcess). Knows nothing of the site.
        .target(
            name: "Widget",
            dependencies: ["DBus", "ComicDomain", "EventLoop", "JSON", "Localization", .product(name: "Logging", package: "swift-log")]
        ),
        // The long-running service: publishes the entry, applies the sync rules, opens links
        // (org.freedesktop.Application). Never touches the network: no Site, no HTTP (the
        // LayeringTests check its dependencies). Offers its executable `ServiceMain`, and
        // `RunningService` with its clock and opener to run it in-process (DesktopTestSupport).
        .target(
            name: "Service",
            dependencies: ["Widget", "DBus", "ComicDomain", "EventLoop", .product(name: "Logging", package: "swift-log")]
        ),
        // The follower: the notifier and the tray item, one process following the service over
        // the bus and drawing the view it publishes (no texts of its own: no Localization,
        // LayeringTests checks). No Site either. Offers `NotifierMain`, the `Notifier` and `TrayItem` with their
        // events, and the tray's and notifications' D-Bus interfaces (for the doctor, the bench
        // and the tests' stand-ins).
        .target(
            name: "Follower",
            dependencies: ["Widget", "DBus", "ComicDomain", "EventLoop", "CImageDecoding", .product(name: "Logging", package: "swift-log")]
        ),
        // The recorder: "the reader is on page N" for the browser host, `update --page` and
        // `import-history`, looked up on the site and stored through the service. The only desktop
        // target that links Site. Offers `PageRecorder`, the host's `BrowserHostMain` and its
        // store (`PageStore`, `RecordingPageStore`).
        .target(
            name: "Recorder",
            dependencies: ["Widget", "DBus", "ComicDomain", "JSON", "Site", .product(name: "Logging", package: "swift-log")]
        ),
        // `dbmultiverse doctor`: one check per piece of an installation (the bus peers, the data
        // folder, the browsers' host manifests, the systemd units, the cards), each with the command
        // that fixes it. Reads only: no Site, no HTTP (it must not link libcurl code). Offers
        // `Doctor.examine` over `Surroundings` and a `DoctorBus`, and its `DoctorReport`.
        .target(
            name: "Doctor",
            dependencies: ["Widget", "Follower", "DBus", "ComicDomain", "JSON", "Localization"]
        ),
        // The service's own executable: no Site, history, doctor or argument parser (LayeringTests).
        .executableTarget(
            name: "dbmultiverse-service",
            dependencies: ["Service", "Widget", "ComicDomain", .product(name: "Logging", package: "swift-log")],
            linkerSettings: [.unsafeFlags(longRunningLinkerFlags, .when(platforms: [.linux], configuration: .release))]
        ),
        // The notifier's and tray item's own executable: no Site, history, doctor or argument parser.
        .executableTarget(
            name: "dbmultiverse-notifier",
            dependencies: ["Follower", "Widget", "ComicDomain", .product(name: "Logging", package: "swift-log")],
            linkerSettings: [.unsafeFlags(longRunningLinkerFlags, .when(platforms: [.linux], configuration: .release))]
        ),
        // The browser extension's native messaging host's own executable: the recorder and the site
        // code, no history, doctor, tray or argument parser. The release flags only: it loads
        // libxml2 with dlopen, whose ICU needs the shared libstdc++.
        .executableTarget(
            name: "dbmultiverse-browser-host",
            dependencies: ["Recorder", "Widget", "ComicDomain", .product(name: "Logging", package: "swift-log")],
            linkerSettings: [.unsafeFlags(releaseLinkerFlags + ["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux], configuration: .release))]
        ),
        // The thin command-line front end. `service` and `notifier` exec their own executables
        // (built beside it: `make build` builds all four products).
        .executableTarget(
            name: "dbmultiverse",
            dependencies: [
                "Widget", "Follower", "Recorder", "Doctor", "DBus", "EventLoop", "ComicDomain", "Site", "BrowserHistory",
                "Localization", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            linkerSettings: [.unsafeFlags(releaseLinkerFlags, .when(platforms: [.linux], configuration: .release))]
        ),
        // A build tool, not a product: prints dbus/com.nobadi.DBMultiverse.Widget1.xml from the
        // Swift declaration (`make interface` writes it).
        .executableTarget(name: "widget-interface", dependencies: ["Widget"], path: "BuildTools/widget-interface"),
        // Sources/ holds what ships, and only that. What the tests share lives in TestSupport/ and
        // the benchmarks in Benchmarks/, each target in a folder of its name (`path:`); test-only,
        // so Foundation is fine there (LayeringTests keeps it out of Sources/).
        // Shared test helpers: the private dbus-daemon fixture, running stock tools, timeouts.
        // Test-only, so Foundation's Process is fine here.
        .target(name: "DBusTestSupport", dependencies: ["DBus", "EventLoop"], path: "TestSupport/DBusTestSupport"),
        // Swift Testing traits of the suites: `.offThePool` for tests that block.
        .target(name: "TestingTraits", dependencies: ["DBusTestSupport"], path: "TestSupport/TestingTraits"),
        // zlib, for the fixture site's gzip bodies (test support only).
        .systemLibrary(name: "CZlib", path: "TestSupport/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The fixture site: a loopback HTTP/1.1 server with the comic's pages, feeds and faults.
        .target(name: "SiteTestSupport", dependencies: ["CZlib"], path: "TestSupport/SiteTestSupport"),
        // A sample object served on the bus: activated by the binding's tests, measured idle.
        .executableTarget(name: "dbus-sample-service", dependencies: ["DBus", "EventLoop", "DBusTestSupport"], path: "TestSupport/dbus-sample-service"),
        // The benchmark's reference peer: a minimal C libdbus service with the same reply.
        .executableTarget(name: "dbus-reference-service", dependencies: ["CDBus"], path: "TestSupport/dbus-reference-service"),
        // `make bench`: the benchmark of the release-built service, notifier and browser host on a
        // private bus (the host's pages from the fixture site).
        .executableTarget(
            name: "dbmultiverse-bench",
            dependencies: ["DBus", "EventLoop", "Widget", "Follower", "Recorder", "ComicDomain", "DBusTestSupport", "SiteTestSupport"],
            path: "Benchmarks/dbmultiverse-bench"
        ),
        // `make bench-site`: the site code's figures (parsing beside lxml and BeautifulSoup, sync on a 304).
        .executableTarget(name: "dbmultiverse-site-bench", dependencies: ["Site", "ComicDomain", "SiteTestSupport"], path: "Benchmarks/dbmultiverse-site-bench"),
        // Browser profiles with history databases in the browsers' real schemas, for the tests
        // and the history benchmark. Test-only, so Foundation's Process is fine here.
        .target(name: "BrowserHistoryFixtures", dependencies: ["DBusTestSupport"], path: "TestSupport/BrowserHistoryFixtures"),
        // What the desktop targets' tests share: the built products and the repository, a real
        // service in-process on a manual clock, the stand-ins for the peers that are not ours (the
        // notification server, the tray's watcher), the fixture catalogue and the entry's
        // assertions. Test-only, so Foundation's Process is fine here.
        .target(
            name: "DesktopTestSupport",
            dependencies: [
                "Widget", "Service", "Follower", "DBus", "EventLoop", "ComicDomain", "DBusTestSupport", "SiteTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "TestSupport/DesktopTestSupport"
        ),
        // The one table of the view's states every face is tested in (the view's own tests, the
        // tray's, the notifier's, the cards'). Test-only.
        .target(name: "WidgetTestSupport", dependencies: ["Widget", "ComicDomain", "DBus"], path: "TestSupport/WidgetTestSupport"),
        // `make bench-history`: the import-history lookup on a 100 000-visit history.
        .executableTarget(
            name: "dbmultiverse-history-bench",
            dependencies: ["BrowserHistory", "BrowserHistoryFixtures", "ComicDomain"],
            path: "Benchmarks/dbmultiverse-history-bench"
        ),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "EventLoop", "DBusTestSupport", "TestingTraits"]),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization"]),
        .testTarget(name: "ComicDomainTests", dependencies: ["ComicDomain", "JSON", "Localization"]),
        .testTarget(name: "SiteTests", dependencies: ["Site", "ComicDomain", "SiteTestSupport", "TestingTraits"]),
        .testTarget(
            name: "BrowserHistoryTests",
            dependencies: ["BrowserHistory", "BrowserHistoryFixtures", "ComicDomain", "DBusTestSupport"]
        ),
        // One test target per desktop target, each `@testable import` of its own (LayeringTests
        // checks what each imports); the suites that run the built products are the five below.
        .testTarget(name: "WidgetTests", dependencies: ["Widget", "ComicDomain", "DBus", "WidgetTestSupport"]),
        .testTarget(
            name: "ServiceTests",
            dependencies: ["Service", "Widget", "DBus", "ComicDomain", "DesktopTestSupport", "DBusTestSupport", "SiteTestSupport", "TestingTraits"]
        ),
        .testTarget(
            name: "FollowerTests",
            dependencies: [
                "Follower", "Widget", "DBus", "EventLoop", "ComicDomain", "DesktopTestSupport", "DBusTestSupport", "SiteTestSupport",
                "TestingTraits", "WidgetTestSupport",
            ]
        ),
        .testTarget(
            name: "RecorderTests",
            dependencies: [
                "Recorder", "Widget", "DBus", "ComicDomain", "JSON", "Site", "DesktopTestSupport", "DBusTestSupport", "SiteTestSupport",
                "TestingTraits", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "DoctorTests", dependencies: ["Doctor", "Widget", "ComicDomain", "DesktopTestSupport", "DBusTestSupport", "TestingTraits"]),
        // What the end-to-end suites share: the built products run as processes (the service, the
        // browser host, headless Chromium, Syncthing), `make install` into a temporary home, the
        // fault scenarios, the real-host checks' runner. Test-only, so Foundation's Process is fine.
        .target(
            name: "EndToEndSupport",
            dependencies: ["Widget", "Recorder", "DBus", "ComicDomain", "DesktopTestSupport", "DBusTestSupport", "SiteTestSupport"],
            path: "TestSupport/EndToEndSupport"
        ),
        // The suites above every layer, by what they prove; none imports a target `@testable`
        // (LayeringTests checks): they run the built products, or use what the targets declare.
        // The command line as built, against the service on a private bus.
        .testTarget(
            name: "CommandEndToEndTests",
            dependencies: [
                "Widget", "Follower", "DBus", "ComicDomain", "EndToEndSupport", "DesktopTestSupport", "DBusTestSupport",
                "SiteTestSupport", "TestingTraits", "BrowserHistoryFixtures",
            ]
        ),
        // The processes as the system, the desktop and the browsers start them: install, deep links,
        // the browser host and the browsers, the notifier under systemd, hostile input, faults.
        .testTarget(
            name: "ProcessEndToEndTests",
            dependencies: [
                "Widget", "Recorder", "DBus", "ComicDomain", "EndToEndSupport", "DesktopTestSupport", "DBusTestSupport",
                "SiteTestSupport", "TestingTraits",
            ]
        ),
        // The cards and faces on real desktop hosts: GNOME Shell, Plasma, tray hosts, dunst, and
        // the documentation's images they make.
        .testTarget(
            name: "DesktopHostTests",
            dependencies: [
                "ComicDomain", "EndToEndSupport", "DesktopTestSupport", "DBusTestSupport", "SiteTestSupport", "TestingTraits",
                "WidgetTestSupport",
            ]
        ),
        // The Debian package, Debian's QA of it, the apt repository, the release's version and
        // artefacts, the source package, the workflows.
        .testTarget(
            name: "DistributionTests",
            dependencies: ["ComicDomain", "EndToEndSupport", "DesktopTestSupport", "DBusTestSupport", "TestingTraits"]
        ),
        // The repository's own conventions: layering, the suites' conventions, the README, the
        // translations, the help snapshots, the test run's summary and dependencies.
        .testTarget(
            name: "RepositoryConventionTests",
            dependencies: [
                "Follower", "DBus", "ComicDomain", "EndToEndSupport", "DesktopTestSupport", "DBusTestSupport", "SiteTestSupport",
                "TestingTraits",
            ]
        ),
    ]
)

for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("InternalImportsByDefault"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
