import DBus
import DBusTestSupport
import Glibc
import Testing

/// Every type through a real libdbus message: appended with libdbus's writer, read back with its
/// reader, with signatures derived from the Swift types.
@Suite(.timeLimit(.minutes(1))) struct ValueRoundTripTests {
    func message() -> Message { Message.signal(path: "/test", interface: "org.example.Test", member: "Values") }

    @Test func basicTypesAtTheirLimits() throws {
        let m = message()
        m.append(UInt8.max, true, false, Int16.min, UInt16.max, Int32.min, UInt32.max, Int64.min, UInt64.max,
                 -1.5e300, "ünïcödé ✓ 😀", ObjectPath("/a/b"), Signature("a{sv}"))
        #expect(m.signature == "ybbnqiuxtdsog")
        let values = try m.decode(UInt8.self, Bool.self, Bool.self, Int16.self, UInt16.self, Int32.self, UInt32.self,
                                  Int64.self, UInt64.self, Double.self, String.self, ObjectPath.self, Signature.self)
        #expect(values.0 == UInt8.max && values.1 && !values.2)
        #expect(values.3 == Int16.min && values.4 == UInt16.max && values.5 == Int32.min && values.6 == UInt32.max)
        #expect(values.7 == Int64.min && values.8 == UInt64.max && values.9 == -1.5e300)
        #expect(values.10 == "ünïcödé ✓ 😀" && values.11.rawValue == "/a/b" && values.12.rawValue == "a{sv}")
    }

    @Test func containers() throws {
        let dict: [String: Variant] = [
            "chapter": Variant(Int32(42)), "name": Variant("Vegeta's Rage"),
            "nested": Variant(["a": Variant(true)] as [String: Variant]), "list": Variant(["x", "y"]),
        ]
        let nested: [[String: [Int32]]] = [["a": [1, 2, 3]], [:], ["b": []]]
        let pairs = [Pair(number: 1, text: "one"), Pair(number: -2, text: "")]
        let m = message()
        m.append(dict, nested, pairs, [String](), [UInt8](repeating: 7, count: 100_000), [Double]([0.5, -0.25]))
        #expect(m.signature == "a{sv}aa{sai}a(is)asayad")
        let (d, n, p, empty, bytes, doubles) = try m.decode([String: Variant].self, [[String: [Int32]]].self, [Pair].self,
                                                             [String].self, [UInt8].self, [Double].self)
        #expect(d == dict)
        #expect(try d["chapter"]?.get(Int32.self) == 42)
        #expect(try d["nested"]?.get([String: Variant].self)["a"]?.get(Bool.self) == true)
        #expect(n == nested && p == pairs && empty.isEmpty && doubles == [0.5, -0.25])
        #expect(bytes.count == 100_000 && bytes.allSatisfy { $0 == 7 })
    }

    @Test func variantsHoldAnyValue() throws {
        let values: [DBusValue] = [
            .byte(1), .boolean(true), .int16(-3), .uint16(3), .int32(-4), .uint32(4), .int64(-5), .uint64(5),
            .double(2.5), .string("s"), .objectPath("/p"), .signature("ai"),
            .array("s", [.string("a"), .string("b")]), .array("i", []),
            .dictionary("s", "v", [.init(key: .string("k"), value: .variant(.int32(1)))]),
            .structure([.int32(1), .string("x"), .array("y", [.byte(9)])]),
            .variant(.variant(.string("deep"))),
        ]
        let m = message()
        m.append(values.map { Variant($0) })
        let decoded = try m.decode([Variant].self)
        #expect(decoded.map(\.value) == values)
        #expect(decoded.map(\.value.signature.rawValue) == values.map(\.signature.rawValue))
    }

    @Test func unixFileDescriptorsAreDuplicated() throws {
        let m = message()
        m.append(UnixFD(owning: dup(1)))
        let fd = try m.decode(UnixFD.self)
        #expect(fd.fd >= 0)
        #expect(m.signature == "h")
    }

    @Test func mismatchesThrowInvalidArgs() throws {
        let m = message()
        m.append(Int32(5), "text")
        let error = try #require(throws: DBusError.self) { try m.decode(String.self, String.self) }
        #expect(error.name == DBusError.Name.invalidArgs)
        #expect(error.message == "expected arguments of signature 'ss', got 'is'")
        #expect(throws: DBusError.self) { try m.decode(Int32.self) }

        let v = Variant(Int32(1))
        let variantError = try #require(throws: DBusError.self) { try v.get(String.self) }
        #expect(variantError.message.contains("expected a value of type 's', got 'i'"))

        // A value read dynamically and converted to the wrong container type.
        let d = message()
        d.append(["a": Int32(1)] as [String: Int32])
        var reader = d.reader()
        let any = try reader.readValue()
        #expect(any.signature.rawValue == "a{si}")
        #expect(throws: DBusError.self) { try [String: Variant](dbusValue: any) }
        #expect(throws: DBusError.self) { try [String](dbusValue: any) }
    }

    @Test func readingPastTheEndThrows() throws {
        let m = message()
        var reader = m.reader()
        #expect(reader.isAtEnd)
        #expect(throws: DBusError.self) { try reader.readValue() }
    }

    @Test func stringsWithNULAreMadeSafe() throws {
        let m = message()
        m.append("a\0b")
        #expect(try m.decode(String.self) == "a\u{FFFD}b")
    }
}
