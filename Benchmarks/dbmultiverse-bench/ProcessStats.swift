import Glibc

/// What /proc says about a process: memory, context switches, CPU time.
struct ProcessStats {
    var rssKiB = 0
    var peakRSSKiB = 0
    var contextSwitches = 0
    var cpuTicks = 0

    /// Time the process has spent on a CPU, all threads, in nanoseconds (/proc/PID/schedstat).
    static func cpuNanoseconds(pid: Int32) -> Int64 {
        guard let text = readText("/proc/\(pid)/schedstat"), let first = text.split(separator: " ").first else { return 0 }
        return Int64(first) ?? 0
    }

    static func read(pid: Int32) -> ProcessStats {
        var stats = ProcessStats()
        if let status = readText("/proc/\(pid)/status") {
            for line in status.split(separator: "\n") {
                let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard fields.count >= 2, let value = Int(fields[1]) else { continue }
                switch fields[0] {
                case "VmRSS:": stats.rssKiB = value
                case "VmHWM:": stats.peakRSSKiB = value
                case "voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:": stats.contextSwitches += value
                default: break
                }
            }
        }
        // Sum over threads: /proc/PID/status counts only the main thread's switches.
        if let tasks = listDirectory("/proc/\(pid)/task"), tasks.count > 1 {
            stats.contextSwitches = 0
            for task in tasks {
                guard let status = readText("/proc/\(pid)/task/\(task)/status") else { continue }
                for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
                    let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                    stats.contextSwitches += Int(fields[1]) ?? 0
                }
            }
        }
        if let stat = readText("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") {
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // Fields after the command: state is 0, utime 11, stime 12.
            if fields.count > 12 { stats.cpuTicks = (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) }
        }
        return stats
    }

    static func threadCount(pid: Int32) -> Int { listDirectory("/proc/\(pid)/task")?.count ?? 0 }
}

func readText(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { _ = close(fd) }
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        result += buffer[0..<count]
    }
    return String(decoding: result, as: UTF8.self)
}

func listDirectory(_ path: String) -> [String]? {
    guard let dir = opendir(path) else { return nil }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafePointer(to: entry.pointee.d_name) {
            $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}
