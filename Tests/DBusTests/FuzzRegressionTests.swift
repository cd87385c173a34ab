import DBus
import Testing

/// Inputs found by the `dbusbody` fuzz target (scripts/dev/fuzz.sh), kept as literals: each once
/// trapped, and must now end in a value or `InvalidArgs`.
@Suite(.timeLimit(.minutes(1))) struct FuzzRegressionTests {
    /// `[UInt8]` from hex digits (whitespace between them ignored).
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8.filter { $0 != 0x20 && $0 != 0x0A })
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) ?? 0 }
    }

    /// An `a{sv}` signal whose "is-placeholder" variant holds an `h` (Unix fd index 0) while the
    /// message carries no descriptors. libdbus reads it as -1; the binding made a `UnixFD(-1)`
    /// of it, and writing that value into another message trapped in `MessageWriter.appendBasic`
    /// ("out of memory"). Reading an `h` without a descriptor is now `InvalidArgs`.
    static let handleWithoutDescriptor = bytes("""
        6c02010134010000010000001300000005017500010000000801670005617b73767d0000000000002c01000000000000
        09000000646565702d6c696e6b000173000000001900000064626d756c746976657273653a2f2f636861707465722f34
        33000000000000000600000066396d696c79000173000000060000006d656469756d000000000000040000006e616d65
        000173000d000000566567657461277320526167650000000e00000069732d706c616765686f6c646572000168000000
        00000000000000000800000070726f677265737300016900230000400000000004000000646174650001780000000000
        00f15365000000000a000000696d6167652d70617468000173000000370000002f686f6d652f752f2e6c6f63616c2f73
        686172652f64626d756c746976657273652f63686170746572436f766572496d6167652e6a7067000700000063686170
        74657200016900002a000000
        """)

    @Test func unixFDIndexWithoutDescriptorIsInvalidArgs() throws {
        let message = try Message(wireBytes: Self.handleWithoutDescriptor)
        #expect(message.signature == "a{sv}")
        var reader = message.reader()
        #expect(throws: DBusError.self) { _ = try reader.readValue() }
        do {
            _ = try message.decode([String: Variant].self)
            Issue.record("an 'h' without a descriptor was accepted")
        } catch {
            #expect(error.name == DBusError.Name.invalidArgs)
            #expect(error.message.contains("file descriptor"))
        }
    }
}
