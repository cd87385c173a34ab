import DBus
import DBusTestSupport
import Foundation
import Testing

// Helpers for reading what the stock tools print, shared by the suites that run them.

/// The argument lines of a `dbus-send --print-reply` answer: checks the run succeeded and the
/// header is a method return from `sender` (the header's time and serials vary, so it is not
/// compared whole), then returns the lines after it.
func dbusSendReplyLines(_ result: CommandResult, from sender: String? = nil,
                        sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
    #expect(result.status == 0, "dbus-send failed: \(result)", sourceLocation: sourceLocation)
    #expect(result.stderr.isEmpty, "dbus-send wrote to stderr: \(result.stderr)", sourceLocation: sourceLocation)
    var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    guard let header = lines.first else {
        Issue.record("dbus-send printed nothing", sourceLocation: sourceLocation)
        return []
    }
    #expect(header.hasPrefix("method return time="), "header was: \(header)", sourceLocation: sourceLocation)
    if let sender {
        #expect(header.contains(" sender=\(sender) -> "), "header was: \(header)", sourceLocation: sourceLocation)
    }
    return Array(lines.dropFirst())
}

/// Checks that a stock tool failed (non-zero exit, nothing on stdout) and printed exactly `stderr`.
func expectToolFailure(_ result: CommandResult, stderr: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(result.status != 0, "expected a failure: \(result)", sourceLocation: sourceLocation)
    #expect(result.stdout.isEmpty, "stdout: \(result.stdout)", sourceLocation: sourceLocation)
    #expect(result.stderr == stderr, sourceLocation: sourceLocation)
}

/// Checks that `body` throws a `DBusError` named `name`.
@discardableResult
func expectDBusError<T>(_ name: String, sourceLocation: SourceLocation = #_sourceLocation,
                        _ body: () async throws -> T) async -> DBusError? {
    do {
        let value = try await body()
        Issue.record("expected \(name), got \(value)", sourceLocation: sourceLocation)
    } catch let error as DBusError {
        #expect(error.name == name, "message: \(error.message)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected the DBusError \(name), got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// GVariant text (as `gdbus call` prints it) with the entries of every `{…}` sorted, so that
/// dictionaries compare equal whatever order the service's hash table produced.
func canonicalGVariantText(_ text: String) -> String {
    canonical(Array(text))
}

private func canonical(_ text: [Character]) -> String {
    var out = ""
    var index = 0
    while index < text.count {
        let character = text[index]
        if character == "'" || character == "\"" {
            let end = endOfQuote(text, at: index)
            out += String(text[index...end])
            index = end + 1
        } else if character == "{" {
            let end = matchingClose(text, at: index)
            let items = splitTopLevel(Array(text[(index + 1)..<end])).map { canonical($0) }.sorted()
            out += "{" + items.joined(separator: ", ") + "}"
            index = end + 1
        } else {
            out.append(character)
            index += 1
        }
    }
    return out
}

private func endOfQuote(_ text: [Character], at start: Int) -> Int {
    var index = start + 1
    while index < text.count, text[index] != text[start] {
        index += text[index] == "\\" ? 2 : 1
    }
    return min(index, text.count - 1)
}

private func matchingClose(_ text: [Character], at start: Int) -> Int {
    var depth = 0
    var index = start
    while index < text.count {
        switch text[index] {
        case "'", "\"": index = endOfQuote(text, at: index)
        case "(", "[", "{", "<": depth += 1
        case ")", "]", "}", ">":
            depth -= 1
            if depth == 0 { return index }
        default: break
        }
        index += 1
    }
    return text.count - 1
}

/// Splits at the commas outside any brackets or quotes, trimming the spaces around each part.
private func splitTopLevel(_ text: [Character]) -> [[Character]] {
    var parts: [[Character]] = []
    var current: [Character] = []
    var depth = 0
    var index = 0
    while index < text.count {
        let character = text[index]
        switch character {
        case "'", "\"":
            let end = endOfQuote(text, at: index)
            current += text[index...end]
            index = end + 1
            continue
        case "(", "[", "{", "<": depth += 1
        case ")", "]", "}", ">": depth -= 1
        case "," where depth == 0:
            parts.append(current)
            current = []
            index += 1
            continue
        default: break
        }
        current.append(character)
        index += 1
    }
    parts.append(current)
    return parts
        .map { Array(String($0).trimmingCharacters(in: .whitespaces)) }
        .filter { !$0.isEmpty }
}
