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

    @Test func structuresOnTheWireAndInVariants() throws {
        let tree = Node(id: 0, bytes: [], children: [
            Node(id: 1, bytes: [1, 2, 3], children: []),
            Node(id: 2, bytes: Array(repeating: 0xAB, count: 65_536), children: [Node(id: 3, bytes: [9], children: [])]),
        ])
        #expect(Node.dbusSignature.rawValue == "(iayav)")
        #expect(Signature.structure(Int32.self, [String: Variant].self, [Variant].self).rawValue == "(ia{sv}av)")
        let m = message()
        m.append(tree, Variant(tree), [tree])
        #expect(m.signature == "(iayav)va(iayav)")
        let (plain, wrapped, list) = try m.decode(Node.self, Variant.self, [Node].self)
        #expect(plain == tree && list == [tree])
        #expect(try wrapped.get(Node.self) == tree)
        #expect(wrapped.value.signature == Node.dbusSignature)
        // The dynamically typed form is the wire form: a struct whose fields are the values.
        guard case .structure(let fields) = tree.children[0].dbusValue else {
            Issue.record("a structure's dbusValue is not a .structure")
            return
        }
        #expect(fields == [.int32(1), .array("y", [.byte(1), .byte(2), .byte(3)]), .array("v", [])])
    }

    @Test func structuresOfAnotherShapeAreInvalidArgs() throws {
        let m = message()
        m.append(Pair(number: 1, text: "one"))
        let error = try #require(throws: DBusError.self) { try m.decode(Node.self) }
        #expect(error.name == DBusError.Name.invalidArgs)
        var reader = m.reader()
        let read = try #require(throws: DBusError.self) { try reader.read(Node.self) }
        #expect(read.message == "expected '(iayav)', got '(is)'")
        #expect(throws: DBusError.self) { try Node(dbusValue: .structure([.int32(1), .string("x")])) }
        // A child of another type inside the `av` is found when the child is read.
        let forged = DBusValue.structure([.int32(0), .array("y", []), .array("v", [.variant(.string("not a node"))])])
        let nested = try #require(throws: DBusError.self) { try Node(dbusValue: forged) }
        #expect(nested.message.contains("'(iayav)'") && nested.message.contains("'s'"), "\(nested.message)")
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

/// A recursive structure, as dbusmenu's layouts are: children inside `av`.
private struct Node: DBusStructure, Equatable {
    var id: Int32
    var bytes: [UInt8]
    var children: [Node]

    init(id: Int32, bytes: [UInt8], children: [Node]) {
        self.id = id
        self.bytes = bytes
        self.children = children
    }

    static let fields: [DBusField<Node>] = [.field(\.id), .field(\.bytes), .variants(\.children)]
    static var empty: Node { Node(id: 0, bytes: [], children: []) }
}
