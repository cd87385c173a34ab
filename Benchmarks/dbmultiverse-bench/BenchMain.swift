import Foundation
import Glibc

/// `make bench`: starts a private bus with the release-built service (activatable) and notifier,
/// takes every measurement in one run against floors from the same run, and prints a table (and
/// writes JSON). Usage: dbmultiverse-bench SERVICE_BINARY [--idle-seconds N] [--json FILE] [--label TEXT] [--pump N]
@main
enum BenchMain {
    static func main() throws {
        var arguments = CommandLine.arguments.dropFirst()
        guard let binary = arguments.popFirst() else {
            print("usage: dbmultiverse-bench PATH-TO-dbmultiverse [--idle-seconds N] [--json FILE] [--label TEXT] [--pump N]")
            exit(2)
        }
        var idleSeconds = 60.0, jsonPath = "bench-results/latest.json", label = "static", pumpCalls = 0
        while let flag = arguments.popFirst() {
            switch flag {
            case "--pump": pumpCalls = Int(arguments.popFirst() ?? "") ?? 0
            case "--idle-seconds": idleSeconds = Double(arguments.popFirst() ?? "") ?? idleSeconds
            case "--json": jsonPath = arguments.popFirst() ?? jsonPath
            case "--label": label = arguments.popFirst() ?? label
            default: print("unknown option \(flag)"); exit(2)
            }
        }
        let bench = try Bench(binary: binary)
        try bench.events.subscribe(on: bench.connection, widget: bench.widget, reference: bench.reference, gdbusReference: bench.gdbusReference)
        if pumpCalls > 0 {
            // For profiling (perf record -p, callgrind): only the 16-in-flight load, printed as it goes.
            try bench.pump(calls: pumpCalls)
            bench.shutdown()
            return
        }
        // In this order: each measurement leaves the processes the next one uses running.
        var rows = try bench.measureStartup()
        rows += try bench.measureRoundTrips()
        rows += try bench.measureChangeToSignal()
        rows += try bench.measureNotification()
        rows += try bench.measureTray()
        rows += bench.measureOpen()
        rows += try bench.measureBrowserHost()
        rows += try bench.measureMemoryAndIdle(idleSeconds: idleSeconds)
        rows += try bench.measureSyncFolder(idleSeconds: idleSeconds)
        bench.shutdown()
        report(rows, label: label, binary: binary, jsonPath: jsonPath)
    }
}

/// Prints the table and writes it as JSON to `jsonPath`.
func report(_ rows: [Row], label: String, binary: String, jsonPath: String) {
    let width = rows.map(\.name.count).max() ?? 40
    print("dbmultiverse benchmark (\(label)): \(binary)")
    for row in rows {
        let verdict = row.met.map { $0 ? "met" : "NOT MET" } ?? ""
        let name = row.name.padding(toLength: width, withPad: " ", startingAt: 0)
        print("\(name)  \(format(row.value, 2)) \(row.unit)  \(row.target.isEmpty ? "" : "[\(row.target)] \(verdict)")")
    }
    var json = "{\n  \"label\": \"\(label)\",\n  \"rows\": [\n"
    json += rows.map { row in
        let met = row.met.map { $0 ? "true" : "false" } ?? "null"
        return "    {\"name\": \"\(row.name)\", \"value\": \(row.value.isFinite ? "\(row.value)" : "null"), \"unit\": \"\(row.unit)\", \"target\": \"\(row.target)\", \"met\": \(met)}"
    }.joined(separator: ",\n")
    json += "\n  ]\n}\n"
    let url = URL(fileURLWithPath: jsonPath)
    do {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try json.write(to: url, atomically: true, encoding: .utf8)
    } catch {
        printError("dbmultiverse-bench: cannot write \(jsonPath): \(error)")
    }
}

/// A line on stderr.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
