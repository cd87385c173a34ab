import Widget
import DBus

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
        rows.append(Row(name: "service RSS after 100k / 200k calls", value: Double(at100k.rssKiB) / 1024, unit: "MiB / \(format(Double(at200k.rssKiB) / 1024, 2)) MiB",
                        target: "≤ 10 MiB, no growth", met: at200k.rssKiB <= 10 * 1024 && at200k.rssKiB - at100k.rssKiB <= 64))
        rows.append(Row(name: "service peak RSS", value: Double(at200k.peakRSSKiB) / 1024, unit: "MiB"))
        if notifierPID > 0 {
            let notifier = ProcessStats.read(pid: notifierPID)
            rows.append(Row(name: "notifier RSS / peak", value: Double(notifier.rssKiB) / 1024, unit: "MiB / \(format(Double(notifier.peakRSSKiB) / 1024, 2)) MiB",
                            target: "≤ 10 MiB", met: notifier.rssKiB <= 10 * 1024))
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
