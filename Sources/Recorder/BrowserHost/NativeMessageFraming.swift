/// The framing of WebExtensions native messaging: each message is its length as a 32-bit
/// unsigned integer in the machine's byte order, then that many bytes of UTF-8 JSON.
package enum NativeMessageFraming {
    /// The largest message the host reads. A request carries one page URL, a few hundred bytes;
    /// anything longer is not from our extension.
    static let maxMessageBytes = 64 * 1024
    /// The length prefix.
    static let headerBytes = 4

    /// `payload` with its length prefix.
    package static func frame(_ payload: [UInt8]) -> [UInt8] {
        withUnsafeBytes(of: UInt32(payload.count)) { Array($0) } + payload
    }
}

/// Why a message stream cannot be read further: its framing is broken, so no later message can
/// be found in it either.
struct FrameError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        /// A length prefix announcing more than `NativeMessageFraming.maxMessageBytes`.
        case oversized(length: UInt32)
        /// The input ended inside a length prefix (`received` of its 4 bytes).
        case truncatedLength(received: Int)
        /// The input ended inside a message: `received` of the `announced` bytes.
        case truncatedMessage(announced: Int, received: Int)
    }

    let kind: Kind

    init(kind: Kind) { self.kind = kind }

    var description: String {
        switch kind {
        case .oversized(let length):
            "a message of \(length) bytes announced, more than the \(NativeMessageFraming.maxMessageBytes) the host accepts"
        case .truncatedLength(let received):
            "the input ended inside a message's 4-byte length (\(received) bytes read)"
        case .truncatedMessage(let announced, let received):
            "the input ended inside a message: \(announced) bytes announced, \(received) read"
        }
    }
}

/// Cuts a byte stream into native messages, fed with the bytes as they are read.
///
/// Holds at most one message and one read's worth of bytes: an oversized length is refused as
/// soon as its 4 bytes arrive, before any of the message is buffered.
struct FrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    /// Where the next unread frame starts in `buffer`.
    private var start = 0

    init() {}

    /// Adds bytes read from the stream.
    mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete message, or nil when more bytes are needed.
    /// - Throws: `oversized` for a length over the limit (the stream cannot be read further).
    mutating func nextMessage() throws(FrameError) -> [UInt8]? {
        guard let length = announcedLength else { return nil }
        guard length <= NativeMessageFraming.maxMessageBytes else {
            throw FrameError(kind: .oversized(length: length))
        }
        let end = start + NativeMessageFraming.headerBytes + Int(length)
        guard buffer.count >= end else { return nil }
        let message = Array(buffer[(start + NativeMessageFraming.headerBytes)..<end])
        start = end
        return message
    }

    /// Checks the stream ended between messages.
    /// - Throws: `truncatedLength` or `truncatedMessage` when part of a message is left over.
    func finish() throws(FrameError) {
        let available = buffer.count - start
        guard available > 0 else { return }
        guard let length = announcedLength else {
            throw FrameError(kind: .truncatedLength(received: available))
        }
        throw FrameError(kind: .truncatedMessage(announced: Int(length), received: available - NativeMessageFraming.headerBytes))
    }

    /// The length prefix of the next message, once all its bytes have arrived.
    private var announcedLength: UInt32? {
        guard buffer.count - start >= NativeMessageFraming.headerBytes else { return nil }
        var length: UInt32 = 0
        withUnsafeMutableBytes(of: &length) { raw in
            raw.copyBytes(from: buffer[start..<(start + NativeMessageFraming.headerBytes)])
        }
        return length
    }
}
