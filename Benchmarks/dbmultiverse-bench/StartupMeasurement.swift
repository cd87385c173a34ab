import DBus
import EventLoop
import Glibc
import Widget

extension Bench {
    /// Cold start by activation (the first call starts the service), and a started service's
    /// time to own its name; each beside the C reference's, the two interleaved so drift in the
    /// machine's speed touches both alike (20 of each).
    func measureStartup() throws -> [Row] {
        var activation = Samples(), nameOwned = Samples(), referenceActivation = Samples(), referenceNameOwned = Samples()
        let referencePath = Bench.referencePath("dbus-reference-service")
        for _ in 0..<20 {
            try stopService()
            var start = EventLoop.now()
            _ = try caller.call(widget.currentEntry().message)
            activation.add(EventLoop.now() - start)
            if referencePath != nil {
                try stopReferenceService()
                start = EventLoop.now()
                _ = try caller.call(reference.currentEntry().message)
                referenceActivation.add(EventLoop.now() - start)
            }
        }
        for _ in 0..<20 {
            try stopService()
            nameOwned.add(latency(until: "owner-acquired", timeout: 10) { _ = spawn(serviceCommand) })
            if let referencePath {
                try stopReferenceService()
                referenceNameOwned.add(latency(until: "reference-acquired", timeout: 10) { referencePID = spawn([referencePath]) })
            }
        }
        try stopReferenceService()
        var rows: [Row] = []
        func compared(_ name: String, _ ours: Samples, _ theirs: Samples) -> Row {
            guard theirs.count > 0 else { return Row(name: name, value: ours.p50 / 1e6, unit: "ms (no C reference)") }
            let ratio = ours.p50 / theirs.p50
            return Row(name: name, value: ours.p50 / 1e6, unit: "ms, C reference \(format(theirs.p50 / 1e6, 2)) ms",
                       target: "≤ 1.5 × C (\(format(ratio, 2))×)", met: ratio <= 1.5)
        }
        rows.append(compared("service start → name owned, p50 of 20", nameOwned, referenceNameOwned))
        rows.append(compared("cold activation → first reply, p50 of 20", activation, referenceActivation))
        return rows
    }
}
