import DBus
import Widget
import EventLoop
import Glibc

extension Bench {
    /// Round trips: the Ping floor (answered inside libdbus), GetCurrentEntry, and the same call
    /// to the reference C service (same reply, built by libdbus the usual way) when it is there:
    /// what the bus and the client cost for that reply, apart from our code. Sequential, then 16
    /// in flight, with the CPU each process spends per call.
    func measureRoundTrips() throws -> [Row] {
        let ping = { self.pingCall() }
        let entry = { self.widget.currentEntry().message }
        let referenceEntry = { self.reference.currentEntry().message }
        let hasReference = try startReferenceService()
        var rows: [Row] = []

        // Interleaved, the order rotating, so drift in the machine's speed touches each kind alike.
        var sequentialKinds: [(make: () -> Message, samples: Samples)] = [(ping, Samples()), (entry, Samples())]
        if hasReference { sequentialKinds.append((referenceEntry, Samples())) }
        for round in 0..<12 {
            for step in sequentialKinds.indices {
                let index = (round + step) % sequentialKinds.count
                sequential(sequentialKinds[index].make, count: 2_000, into: &sequentialKinds[index].samples)
            }
        }
        let pingSamples = sequentialKinds[0].samples, entrySamples = sequentialKinds[1].samples
        let pingRate = 1e9 / pingSamples.mean, entryRate = 1e9 / entrySamples.mean
        rows.append(Row(name: "Ping floor sequential p50 / p99 / max", value: pingSamples.p50 / 1e3, unit: "µs \(format(pingSamples.p99 / 1e3)) / \(format(pingSamples.max / 1e3))"))
        rows.append(Row(name: "GetCurrentEntry sequential p50 / p99 / max", value: entrySamples.p50 / 1e3, unit: "µs \(format(entrySamples.p99 / 1e3)) / \(format(entrySamples.max / 1e3))",
                        target: "p50 ≤ 1.05 × floor (\(format(entrySamples.p50 / pingSamples.p50, 2))×)", met: entrySamples.p50 <= 1.05 * pingSamples.p50))
        if hasReference {
            let referenceSamples = sequentialKinds[2].samples
            rows.append(Row(name: "C reference GetCurrentEntry sequential p50 / p99", value: referenceSamples.p50 / 1e3,
                            unit: "µs \(format(referenceSamples.p99 / 1e3)) (\(format(referenceSamples.p50 / pingSamples.p50, 2))× the floor)"))
        }
        rows.append(Row(name: "sequential calls/s: Ping / GetCurrentEntry", value: pingRate, unit: "/ \(format(entryRate, 0))"))

        // 16 in flight: 24 rounds of 5 000 calls of each kind back to back, the order rotating; the
        // median of the rounds' ratios, so a burst of noise from the rest of the machine spoils one
        // round, not the figure. Beside it, the CPU each process spends per call, which shows where
        // a gap comes from; the C reference too when it is there.
        struct Kind { let name: String; let make: () -> Message; var rates: [Double] = []; var cpu: [Int64] }
        var processes = [("service", try servicePID()), ("bus daemon", try pid(of: "org.freedesktop.DBus")), ("client", getpid())]
        var kinds = [Kind(name: Peer.ping.name.rawValue, make: ping, cpu: []),
                     Kind(name: Widget1.getCurrentEntry.name.rawValue, make: entry, cpu: [])]
        if hasReference {
            processes.append(("C reference", try pid(of: reference.object.destination.rawValue)))
            kinds.append(Kind(name: "C reference GetCurrentEntry", make: referenceEntry, cpu: []))
        }
        for index in kinds.indices { kinds[index].cpu = [Int64](repeating: 0, count: processes.count) }
        let rounds = 24, callsPerRound = 5_000
        for round in 0..<rounds {
            for step in kinds.indices {
                let index = (round + step) % kinds.count
                let before = processes.map { ProcessStats.cpuNanoseconds(pid: $0.1) }
                kinds[index].rates.append(pipelined(kinds[index].make, total: callsPerRound, depth: 16))
                for (slot, process) in processes.enumerated() {
                    kinds[index].cpu[slot] += ProcessStats.cpuNanoseconds(pid: process.1) - before[slot]
                }
            }
        }
        func ratios(_ kind: Kind) -> [Double] { zip(kind.rates, kinds[0].rates).map { $0 / $1 } }
        let entryRatios = ratios(kinds[1]), ratio = median(entryRatios)
        rows.append(Row(name: "16 in flight calls/s: Ping / GetCurrentEntry", value: median(kinds[0].rates),
                        unit: "/ \(format(median(kinds[1].rates), 0)) (round ratios \(format(entryRatios.min() ?? .nan, 2))…\(format(entryRatios.max() ?? .nan, 2)))",
                        target: "≥ 0.90 × floor (median \(format(ratio, 2))×)", met: ratio >= 0.90))
        if kinds.count > 2 {
            let referenceRatios = ratios(kinds[2])
            rows.append(Row(name: "16 in flight calls/s: C reference GetCurrentEntry", value: median(kinds[2].rates),
                            unit: "(median \(format(median(referenceRatios), 2))× the Ping floor; rounds \(format(referenceRatios.min() ?? .nan, 2))…\(format(referenceRatios.max() ?? .nan, 2)))"))
        }
        let callsPerKind = Double(rounds * callsPerRound)
        let names = processes.map(\.0).joined(separator: " / ")
        for kind in kinds {
            let perCall = kind.cpu.map { format(Double($0) / callsPerKind / 1e3, 2) }.joined(separator: " / ")
            rows.append(Row(name: "CPU µs per call, \(kind.name): \(names)", value: Double(kind.cpu.reduce(0, +)) / callsPerKind / 1e3, unit: "total (\(perCall))"))
        }
        // With every core busy, calls/s can't beat the ratio of the CPU the two kinds of call cost.
        for kind in kinds.dropFirst() {
            rows.append(Row(name: "CPU-bound ceiling of \(kind.name) ÷ Ping", value: Double(kinds[0].cpu.reduce(0, +)) / Double(kind.cpu.reduce(0, +)), unit: "×"))
        }
        return rows
    }

    /// `--pump N`: N GetCurrentEntry calls, then N Pings, 16 in flight, once the service runs
    /// (its pid goes to stderr); for attaching a profiler to the service.
    func pump(calls: Int) throws {
        _ = try caller.call(widget.currentEntry().message)
        printError("service pid \(try servicePID())")
        let mark = { (what: String) in printError("\(what) at \(format(Double(EventLoop.now()) / 1e9, 6)) s") }
        mark(Widget1.getCurrentEntry.name.rawValue)
        let entry = pipelined({ self.widget.currentEntry().message }, total: calls, depth: 16)
        mark("Ping")
        let floor = pipelined({ self.pingCall() }, total: calls, depth: 16)
        mark("done")
        print("16 in flight calls/s: GetCurrentEntry \(format(entry, 0)), Ping \(format(floor, 0)) (\(format(entry / floor, 2))×)")
    }
}
