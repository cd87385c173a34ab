import DBus
import EventLoop
import Widget

extension Bench {
    /// From a change to its `TimelinesReloaded`: an `UpdateChapter` call, another program's write
    /// of the file (timed from its rename), and the progress debounce (expected 2.000 s).
    func measureChangeToSignal() throws -> [Row] {
        var rows: [Row] = []
        var updateToSignal = Samples()
        for index in 0..<400 {
            let update = widget.updateChapter(100 + index % 2, name: "Chapter \(index)", progress: 10)
            updateToSignal.add(latency(until: "chapter-change") { connection.call(update.message) { _ in } })
            drainService() // the reply (after the sync state is recorded) before the next update
        }
        rows.append(Row(name: "UpdateChapter → TimelinesReloaded p50 / p99", value: updateToSignal.p50 / 1e3, unit: "µs / \(format(updateToSignal.p99 / 1e3)) µs",
                        target: "p99 ≤ 2 ms", met: updateToSignal.p99 <= 2e6))

        var writeToSignal = Samples()
        for index in 0..<200 {
            let rename = try stageExternalWrite(chapter: 200 + index % 2)
            writeToSignal.add(latency(until: "chapter-change") { rename() })
            drainService()
        }
        rows.append(Row(name: "external write (rename) → TimelinesReloaded p50 / p99", value: writeToSignal.p50 / 1e3, unit: "µs / \(format(writeToSignal.p99 / 1e3)) µs",
                        target: "p99 ≤ 10 ms", met: writeToSignal.p99 <= 10e6))

        // The last progress update of a burst → progress-change.
        var debounceError = Samples()
        for round in 0..<3 {
            let before = events.count(of: "progress-change")
            var lastSent: Int64 = 0
            for step in 0..<3 {
                let update = widget.updateProgress(round % 2 == 0 ? 40 + step : 80 + step)
                lastSent = EventLoop.now()
                try call(update)
            }
            _ = wait(timeout: 5) { self.events.count(of: "progress-change") > before }
            debounceError.add(abs(events.last(of: "progress-change") - lastSent - 2_000_000_000))
        }
        rows.append(Row(name: "debounce error (|signal − last update − 2 s|), max", value: debounceError.max / 1e6, unit: "ms",
                        target: "≤ 50 ms", met: debounceError.max <= 50e6))
        return rows
    }
}
