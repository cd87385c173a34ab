/// Latency samples in nanoseconds, summarised as the benchmark table shows them.
struct Samples {
    private(set) var values: [Int64] = []
    mutating func add(_ nanoseconds: Int64) { values.append(nanoseconds) }
    var count: Int { values.count }

    func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let index = Swift.min(sorted.count - 1, Swift.max(0, Int((Double(sorted.count) * p).rounded(.up)) - 1))
        return Double(sorted[index])
    }
    var p50: Double { percentile(0.50) }
    var p99: Double { percentile(0.99) }
    var max: Double { Double(values.max() ?? 0) }
    var mean: Double { values.isEmpty ? .nan : Double(values.reduce(0, +)) / Double(values.count) }
}

/// One row of the result table, also written to the JSON file.
struct Row {
    let name: String
    let value: Double
    let unit: String
    /// The target as text and whether this run met it (nil: informational).
    var target: String = ""
    var met: Bool? = nil
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func format(_ value: Double, _ digits: Int = 1) -> String {
    guard value.isFinite else { return "n/a" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
    return text
}
