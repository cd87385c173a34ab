import Widget
import DBus
import Glibc

extension Bench {
    /// The service's memory after 100 000 and 200 000 calls, the notifier's, and what both do
    /// while nothing happens for `idleSeconds`.
    func measureMemoryAndIdle(idleSeconds: Double) throws -> [Row] {
        var rows: [Row] = []
        let pid = try servicePID()
        let entry = { self.widget.currentEntry().message }
        _ = pipelined(entry, total: max(0, 100_000 - serviceCalls), depth: 16)
        let at100k = ProcessStats.read(pid: pid)
        _ = pipelined(entry, total: 100_000, depth: 16)
        let at200k = ProcessStats.read(pid: pid)
        // The references after the same load: the C one (libdbus) and the GDBus one, 200 000 calls
        // each, 16 in flight.
        let referenceEntry = { self.reference.currentEntry().message }, gdbusEntry = { self.gdbusReference.currentEntry().message }
        var references: [(name: String, rssKiB: Int)] = []
        if try startReferenceService() {
            _ = pipelined(referenceEntry, total: 200_000, depth: 16, toService: false)
            references.append(("C libdbus", ProcessStats.read(pid: referencePID).rssKiB))
        }
        if let path = Bench.referencePath("gdbus-reference-service") {
            let before = events.count(of: "gdbus-acquired")
            gdbusReferencePID = spawn([path])
            if gdbusReferencePID > 0 && wait(timeout: 10, { self.events.count(of: "gdbus-acquired") > before }) {
                _ = pipelined(gdbusEntry, total: 200_000, depth: 16, toService: false)
                references.append(("GDBus", ProcessStats.read(pid: gdbusReferencePID).rssKiB))
            }
        }
        let gdbusKiB = references.first { $0.name == "GDBus" }?.rssKiB ?? Int.max
        rows.append(Row(name: "service RSS after 100k / 200k calls", value: Double(at100k.rssKiB) / 1024, unit: "MiB / \(format(Double(at200k.rssKiB) / 1024, 2)) MiB",
                        target: "≤ 6 MiB, ≤ GDBus, no growth", met: at200k.rssKiB <= 6 * 1024 && at200k.rssKiB <= gdbusKiB && at200k.rssKiB - at100k.rssKiB <= 64))
        for reference in references {
            rows.append(Row(name: "\(reference.name) reference RSS after 200k calls", value: Double(reference.rssKiB) / 1024, unit: "MiB"))
        }
        rows.append(Row(name: "service peak RSS", value: Double(at200k.peakRSSKiB) / 1024, unit: "MiB"))
        if notifierPID > 0 {
            let notifier = ProcessStats.read(pid: notifierPID)
            rows.append(Row(name: "notifier RSS / peak", value: Double(notifier.rssKiB) / 1024, unit: "MiB / \(format(Double(notifier.peakRSSKiB) / 1024, 2)) MiB",
                            target: "≤ 8 MiB", met: notifier.rssKiB <= 8 * 1024))
        }

        // Idle: no calls, no signals; count what each process does meanwhile.
        let serviceBefore = ProcessStats.read(pid: pid)
        let notifierBefore = notifierPID > 0 ? ProcessStats.read(pid: notifierPID) : nil
        _ = wait(timeout: idleSeconds) { false }
        let serviceAfter = ProcessStats.read(pid: pid)
        let switches = serviceAfter.contextSwitches - serviceBefore.contextSwitches
        rows.append(Row(name: "service idle \(format(idleSeconds, 0)) s: context switches / CPU ticks", value: Double(switches),
                        unit: "/ \(serviceAfter.cpuTicks - serviceBefore.cpuTicks) (threads: \(ProcessStats.threadCount(pid: pid)))",
                        target: "0 switches", met: switches == 0))
        if let notifierBefore {
            let after = ProcessStats.read(pid: notifierPID)
            let notifierSwitches = after.contextSwitches - notifierBefore.contextSwitches
            rows.append(Row(name: "notifier idle \(format(idleSeconds, 0)) s: context switches / CPU ticks", value: Double(notifierSwitches),
                            unit: "/ \(after.cpuTicks - notifierBefore.cpuTicks) (threads: \(ProcessStats.threadCount(pid: notifierPID)))",
                            target: "0 switches", met: notifierSwitches == 0))
        }
        return rows
    }
}
