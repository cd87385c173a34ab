import DBus
import Foundation
import Glibc
import Widget

extension Bench {
    /// The sync folder (docs/sync.md) in the running service: what turning it on costs (the
    /// `ReloadTimelines` that `dbmultiverse sync-folder` makes, which starts sharing and reads every
    /// record, against plain reloads before and after), its memory, and what the service does while
    /// nothing happens with the folder watched.
    func measureSyncFolder(idleSeconds: Double) throws -> [Row] {
        let pid = try servicePID()
        let shared = dataDirectory + "-shared", configFolder = dataDirectory + "-config/dbmultiverse"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: configFolder, withIntermediateDirectories: true)
        // Two other computers have written there, as a reader with three computers would see it.
        for (machine, chapter) in [("bench-laptop", 40), ("bench-desktop", 41)] {
            let record = #"{"machine":"\#(machine)","computer":"\#(machine)","readAt":1000,"time":1000000,"count":0,"chapter":\#(chapter),"name":"Chapter \#(chapter)","progress":10}"#
            try record.write(toFile: shared + "/\(machine).json", atomically: true, encoding: .utf8)
        }
        let reload = { self.widget.reloadTimelines().message }
        var before = Samples(), after = Samples()
        sequential(reload, count: 50, into: &before)
        let rssBefore = ProcessStats.read(pid: pid).rssKiB
        try "sync-folder = \(shared)\n".write(toFile: configFolder + "/config", atomically: true, encoding: .utf8)
        var turningOn = Samples()
        sequential(reload, count: 1, into: &turningOn)
        sequential(reload, count: 50, into: &after)
        let rssAfter = ProcessStats.read(pid: pid).rssKiB
        let watching = FileManager.default.fileExists(atPath: shared + "/bench.json")
        drainService()

        let idleBefore = ProcessStats.read(pid: pid)
        _ = wait(timeout: idleSeconds) { false }
        let idleAfter = ProcessStats.read(pid: pid)
        let switches = idleAfter.contextSwitches - idleBefore.contextSwitches
        return [
            Row(name: "reload, sync folder off / on (median)", value: before.percentile(0.5) / 1e6,
                unit: "ms / \(format(after.percentile(0.5) / 1e6, 3)) ms (on: reads the folder again)"),
            Row(name: "turning the sync folder on (one reload)", value: turningOn.percentile(0.5) / 1e6,
                unit: "ms (2 records read, this computer's written)", target: "record written", met: watching),
            Row(name: "service RSS before / after turning it on", value: Double(rssBefore) / 1024,
                unit: "MiB / \(format(Double(rssAfter) / 1024, 2)) MiB"),
            Row(name: "service idle \(format(idleSeconds, 0)) s, sync folder watched: context switches / CPU ticks", value: Double(switches),
                unit: "/ \(idleAfter.cpuTicks - idleBefore.cpuTicks)", target: "0 switches", met: switches == 0),
        ]
    }
}
