import DBus
import EventLoop
import Widget

extension Bench {
    /// Cold start by activation (the first call starts the service), and a started service's
    /// time to own its name.
    func measureStartup() throws -> [Row] {
        var activation = Samples(), nameOwned = Samples()
        for _ in 0..<10 {
            try stopService()
            let start = EventLoop.now()
            _ = try caller.call(widget.currentEntry().message)
            activation.add(EventLoop.now() - start)
        }
        for _ in 0..<10 {
            try stopService()
            nameOwned.add(latency(until: "owner-acquired", timeout: 10) { _ = spawn([binary, "service"]) })
        }
        return [
            Row(name: "service start → name owned, p50", value: nameOwned.p50 / 1e6, unit: "ms", target: "≤ 15 ms", met: nameOwned.p50 <= 15e6),
            Row(name: "cold activation → first reply, p50", value: activation.p50 / 1e6, unit: "ms", target: "≤ 30 ms", met: activation.p50 <= 30e6),
        ]
    }
}
