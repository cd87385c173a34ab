import DBus
import Testing

/// `Message.wireBytes()` and `Message(wireBytes:)`: libdbus's marshalling, both ways.
@Suite(.timeLimit(.minutes(1))) struct MessageWireTests {
    @Test func signalRoundTripsThroughItsWireForm() throws {
        let signal = Message.signal(path: "/com/example/Thing", interface: "com.example.Thing", member: "Changed")
        let extra: [String: Variant] = ["flag": Variant(true), "list": Variant(["a", "b"])]
        signal.append(Int32(42), "Goku ✓", [UInt8]([1, 2, 3]), extra)
        let bytes = signal.wireBytes()
        #expect(bytes.count > 16)

        let copy = try Message(wireBytes: bytes)
        #expect(copy.kind == .signal)
        #expect(copy.path == "/com/example/Thing")
        #expect(copy.interface == "com.example.Thing")
        #expect(copy.member == "Changed")
        #expect(copy.signature == "isaya{sv}")
        let (number, text, data, dictionary) = try copy.decode(Int32.self, String.self, [UInt8].self, [String: Variant].self)
        #expect(number == 42 && text == "Goku ✓" && data == [1, 2, 3] && dictionary == extra)
        #expect(copy.wireBytes() == bytes)
    }

    @Test func invalidBytesAreInvalidArgs() throws {
        let bytes = Message.signal(path: "/a", interface: "com.example.A", member: "B").wireBytes()
        var corrupt = bytes
        corrupt[0] = UInt8(ascii: "X") // neither "l" nor "B": not a byte order
        // A 4-byte body but no signature header field for it.
        var unsignedBody = bytes + [0, 0, 0, 0]
        unsignedBody[4] = 4
        let cases: [[UInt8]] = [[], Array(bytes.prefix(15)), Array(bytes.dropLast()), bytes + [0], [UInt8](repeating: 0xFF, count: 64), corrupt, unsignedBody]
        for input in cases {
            #expect(throws: DBusError.self) { try Message(wireBytes: input) }
            do {
                _ = try Message(wireBytes: input)
            } catch {
                #expect(error.name == DBusError.Name.invalidArgs, "\(input.count) bytes: \(error)")
            }
        }
    }
}
