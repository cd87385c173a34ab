// libFuzzer target `mocatalogue` (scripts/dev/fuzz.sh): MessageCatalogue.problem, the check a
// gettext catalogue passes before glibc may read it (Sources/Localization/MessageCatalogue.swift).
//
// Built together with Sources/Localization into one module, so internal API is in reach.
// The check must never trap, and what it passes must be safe for glibc: every catalogue it
// passes is read here as glibc 2.36 reads it (intl/loadmsgcat.c, dcigettext.c, plural-exp.c) —
// its header, the lookup of the header and of other messages through the hash table (or the
// binary search), the copy of each translation, the walk over a plural's forms and the plural
// expression's evaluation — from a buffer of exactly the file's size, without bound checks, as
// glibc does. AddressSanitizer reports a read outside the file; a lookup that would never end, a
// division by zero or a charset that would overflow glibc's stack fails a precondition.

import Glibc

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    guard MessageCatalogue.problem(bytes) == nil else { return 0 }
    // A copy of exactly the file's size: one byte past it is outside the allocation.
    let file = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 16)
    defer { file.deallocate() }
    file.copyMemory(from: data, byteCount: size)
    GlibcModel(data: UnsafeRawPointer(file), size: size)?.readAsGettextDoes()
    return 0
}

/// The catalogue as glibc holds it after `_nl_load_domain`.
struct GlibcModel {
    let data: UnsafeRawPointer
    let swapped: Bool
    let count: UInt32, originals: UnsafeRawPointer, translations: UnsafeRawPointer
    let hashSize: UInt32, hashTable: UnsafeRawPointer?

    /// nil where glibc does not load the file: shorter than its 48-byte header structure, no magic.
    init?(data: UnsafeRawPointer, size: Int) {
        guard size >= 48 else { return nil }
        let magic = data.loadUnaligned(as: UInt32.self)
        guard magic == 0x9504_12de || magic == 0xde12_0495 else { return nil }
        self.data = data
        let swap = magic != 0x9504_12de
        swapped = swap
        func word(_ offset: Int) -> UInt32 {
            let value = data.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            return swap ? value.byteSwapped : value
        }
        let revision = word(4)
        // Other revisions take glibc's paths for system-dependent strings, not modelled here.
        precondition(revision == 0, "passed a catalogue of revision \(revision)")
        count = word(8)
        originals = data + Int(word(12))
        translations = data + Int(word(16))
        hashSize = word(20)
        hashTable = hashSize > 2 ? data + Int(word(24)) : nil
    }

    private func word(_ pointer: UnsafeRawPointer, _ index: Int) -> UInt32 {
        let value = pointer.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self)
        return swapped ? value.byteSwapped : value
    }

    private func string(_ table: UnsafeRawPointer, _ index: Int) -> (pointer: UnsafePointer<CChar>, length: Int) {
        let length = Int(word(table, 2 * index)), offset = Int(word(table, 2 * index + 1))
        return ((data + offset).assumingMemoryBound(to: CChar.self), length)
    }

    /// gettext's hash_string.
    static func hash(_ text: UnsafePointer<CChar>) -> UInt32 {
        var value: UInt = 0
        var pointer = text
        while pointer.pointee != 0 {
            value = (value << 4) &+ UInt(UInt8(bitPattern: pointer.pointee))
            let high = value & (~UInt(0) << 28)
            if high != 0 {
                value ^= high >> 24
                value ^= high
            }
            pointer += 1
        }
        return UInt32(truncatingIfNeeded: value)
    }

    /// `_nl_find_msg`: the translation of `msgid` and its length (with the NUL), or nil.
    func find(_ msgid: UnsafePointer<CChar>) -> (UnsafePointer<CChar>, Int)? {
        var found: Int?
        if let hashTable {
            let length = UInt32(truncatingIfNeeded: strlen(msgid))
            let value = Self.hash(msgid)
            var slot = value % hashSize
            let increment = 1 + value % (hashSize - 2)
            var probes: UInt32 = 0
            while true {
                probes += 1
                precondition(probes <= hashSize, "a lookup that never ends: \(hashSize) slots probed")
                let entry = word(hashTable, Int(slot))
                if entry == 0 { break }
                let index = Int(entry - 1)
                precondition(index < Int(count), "hash slot names string \(index) of \(count)")
                let original = string(originals, index)
                if original.length >= length, strcmp(msgid, original.pointer) == 0 {
                    found = index
                    break
                }
                slot = slot >= hashSize - increment ? slot - (hashSize - increment) : slot + increment
            }
        } else {
            var bottom = 0, top = Int(count)
            while bottom < top {
                let middle = (bottom + top) / 2
                let compared = strcmp(msgid, string(originals, middle).pointer)
                if compared < 0 {
                    top = middle
                } else if compared > 0 {
                    bottom = middle + 1
                } else {
                    found = middle
                    break
                }
            }
        }
        guard let found else { return nil }
        let translation = string(translations, found)
        // The conversion to the output charset reads length + 1 bytes, NULs included.
        var sum: UInt8 = 0
        for offset in 0...translation.length { sum &+= UInt8(bitPattern: translation.pointer[offset]) }
        _ = sum
        return (translation.pointer, translation.length + 1)
    }

    /// What a program's gettext, ngettext and the loading of the catalogue read.
    func readAsGettextDoes() {
        // The header: its charset is copied with alloca, its plural expression parsed.
        var plural: PluralExpression.Node?
        var forms: UInt = 2
        if let (header, _) = "".withCString({ find($0) }) {
            if let charset = strstr(header, "charset=") {
                let length = strcspn(charset + 8, " \t\n")
                precondition(length < 4096, "a charset of \(length) bytes onto glibc's stack")
            }
            if let expression = strstr(header, "plural="), let count = strstr(header, "nplurals=") {
                var digits = count + 9
                while digits.pointee != 0, isspace(Int32(UInt8(bitPattern: digits.pointee))) != 0 { digits += 1 }
                if (48...57).contains(digits.pointee) {
                    forms = strtoul(digits, nil, 10)
                    var parser = PluralExpression(Array(UnsafeRawBufferPointer(start: expression + 7, count: strlen(expression + 7)))[...])
                    plural = try? parser.parse()
                }
            }
        }
        // Messages this catalogue has (by their originals, which glibc compares with strcmp) and
        // ones it has not: each lookup probes until a match or an empty slot.
        var queries: [UnsafePointer<CChar>] = []
        for index in 0..<min(Int(count), 8) { queries.append(string(originals, index).pointer) }
        let absent: [UnsafeMutablePointer<CChar>] = ["Continue reading", "Chapter %d: %s", "%d new page", "\u{4}", "zzzz"].map { (text: String) in strdup(text)! }
        defer { absent.forEach { free($0) } }
        queries += absent.map { UnsafePointer<CChar>($0) }
        for msgid in queries {
            guard let (translation, length) = find(msgid) else { continue }
            _ = strlen(translation)
            // ngettext: the form the expression chooses, found by skipping NULs within the translation.
            for n: UInt64 in [0, 1, 2, 5, 11, 22, 101, 1_000_000, UInt64.max] {
                var index: UInt64 = n == 1 ? 0 : 1
                if let plural {
                    guard let value = plural.value(n) else { preconditionFailure("the plural expression divides by zero for n = \(n)") }
                    index = value
                }
                if index >= UInt64(forms) { index = 0 }
                var form = UnsafeRawPointer(translation)
                while index > 0 {
                    while form.load(as: UInt8.self) != 0 { form += 1 }
                    form += 1
                    // Past the translation: glibc returns its first form.
                    if form >= UnsafeRawPointer(translation) + length {
                        form = UnsafeRawPointer(translation)
                        break
                    }
                    index -= 1
                }
                _ = strlen(form.assumingMemoryBound(to: CChar.self))
            }
        }
    }
}
