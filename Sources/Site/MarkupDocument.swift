import ComicDomain
import CSiteLibraries

/// A document parsed by libxml2 (its HTML parser for pages, its XML parser for feeds), freed with
/// the value. Its nodes are valid only while the document lives: extractors use them inside one
/// call and return Swift values.
final class MarkupDocument {
    private let document: OpaquePointer

    private init(_ document: OpaquePointer) { self.document = document }

    deinit { csite_document_free(document) }

    /// Parses HTML as browsers do (broken markup recovered, nothing reported, no network).
    /// `encoding` is the charset the server declared, if any; else UTF-8.
    /// - Throws: `unexpectedContent` when libxml2 yields no document (e.g. an empty body).
    static func html(_ bytes: [UInt8], encoding: String?, source: String) throws(SiteError) -> MarkupDocument {
        try Libraries.loadLibXML2()
        try checkLength(bytes, source: source)
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { csite_html_parse($0.baseAddress, Int32(buffer.count), encoding ?? "UTF-8") }
        }
        guard let parsed else { throw SiteError(.unexpectedContent, "\(source): not an HTML page (empty or unreadable)") }
        return MarkupDocument(parsed)
    }

    /// Parses XML without network access, DTD loading or entity substitution.
    /// - Throws: `unexpectedContent` when nothing usable parses.
    static func xml(_ bytes: [UInt8], source: String) throws(SiteError) -> MarkupDocument {
        try Libraries.loadLibXML2()
        try checkLength(bytes, source: source)
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { csite_xml_parse($0.baseAddress, Int32(buffer.count)) }
        }
        guard let parsed else { throw SiteError(.unexpectedContent, "\(source): not an XML document") }
        return MarkupDocument(parsed)
    }

    private static func checkLength(_ bytes: [UInt8], source: String) throws(SiteError) {
        guard !bytes.isEmpty else { throw SiteError(.unexpectedContent, "\(source): the response is empty") }
        guard bytes.count < Int(Int32.max) else { throw SiteError(.tooLarge, "\(source): the response is too large") }
    }

    /// The root element, or nil for a document without one.
    var root: MarkupNode? { csite_document_root(document).map(MarkupNode.init) }

    /// The nodes `expression` selects, in document order, with `context` as the context node.
    /// An invalid expression or a non-node result selects nothing.
    func select(_ expression: String, from context: MarkupNode? = nil) -> [MarkupNode] {
        guard let set = csite_xpath(document, context?.pointer, expression) else { return [] }
        defer { csite_node_set_free(set) }
        let count = Int(csite_node_set_count(set))
        var nodes: [MarkupNode] = []
        nodes.reserveCapacity(count)
        for index in 0..<count {
            if let node = csite_node_set_item(set, Int32(index)) { nodes.append(MarkupNode(node)) }
        }
        return nodes
    }

    /// The XPath test "the element has `token` among the words of its class attribute" (a whole
    /// token: `horscadrelect` does not have the class `cadrelect`).
    static func hasClass(_ token: String) -> String {
        "contains(concat(' ', normalize-space(@class), ' '), ' \(token) ')"
    }
}

/// A node of a `MarkupDocument` (valid while the document lives).
struct MarkupNode {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    static let elementType: Int32 = 1
    static let attributeType: Int32 = 2

    var isElement: Bool { csite_node_type(pointer) == Self.elementType }
    /// Elements and attributes hold child nodes (an attribute's value is its text children).
    var hasChildren: Bool { isElement || csite_node_type(pointer) == Self.attributeType }

    /// The element's local name (lower-case for HTML), or nil for other nodes.
    var name: String? { csite_node_name(pointer).map { String(cString: $0) } }

    /// The attribute's value with entities decoded, or nil when absent.
    func attribute(_ name: String) -> String? {
        guard let value = csite_node_attribute(pointer, name) else { return nil }
        defer { csite_xml_free(value) }
        return String(cString: value)
    }

    // withCString, not the implicit conversion: that one copied the token into a new array at
    // every call, the extractors' commonest calls (measured with the sitemarkup fuzz target).

    /// Whether the class attribute lists `token` as a whole word.
    func hasClass(_ token: String) -> Bool { token.withCString { csite_node_has_class(pointer, $0) } != 0 }

    /// Whether this is an element named `name` (lower-case for HTML).
    func isNamed(_ name: String) -> Bool { name.withCString { csite_node_is_named(pointer, $0) } != 0 }

    /// The children, in order.
    var children: [MarkupNode] {
        var result: [MarkupNode] = []
        var child = csite_node_first_child(pointer)
        while let node = child {
            result.append(MarkupNode(node))
            child = csite_node_next_sibling(node)
        }
        return result
    }

    /// The text of the node and its descendants, whitespace runs collapsed to one space and
    /// trimmed; at most `limit` bytes are gathered. Entity references (in XML) are not expanded.
    func text(limit: Int = 4096, skipping skip: (MarkupNode) -> Bool = { _ in false }) -> String {
        var bytes: [UInt8] = []
        gatherText(into: &bytes, limit: limit, depth: 0, skip: skip)
        return collapseWhitespace(String(decoding: bytes, as: UTF8.self))
    }

    private func gatherText(into bytes: inout [UInt8], limit: Int, depth: Int, skip: (MarkupNode) -> Bool) {
        if let text = csite_node_text(pointer) {
            var cursor = text
            while cursor.pointee != 0, bytes.count < limit {
                bytes.append(UInt8(bitPattern: cursor.pointee))
                cursor += 1
            }
            return
        }
        // libxml2 caps the tree's depth (256) itself; the extra bound keeps the stack small anyway.
        guard depth < 512, hasChildren else { return }
        var child = csite_node_first_child(pointer)
        while let node = child, bytes.count < limit {
            let childNode = MarkupNode(node)
            if !skip(childNode) { childNode.gatherText(into: &bytes, limit: limit, depth: depth + 1, skip: skip) }
            child = csite_node_next_sibling(node)
        }
    }

    /// The descendant elements in document order, up to (not including) the first for which
    /// `stop` is true: with unclosed tags, what follows the next chapter belongs to it.
    func descendants(until stop: (MarkupNode) -> Bool = { _ in false }) -> [MarkupNode] {
        var result: [MarkupNode] = []
        _ = collect(into: &result, depth: 0, stop: stop)
        return result
    }

    /// Returns false once `stop` matched (the walk ends there).
    private func collect(into result: inout [MarkupNode], depth: Int, stop: (MarkupNode) -> Bool) -> Bool {
        guard depth < 512 else { return true }
        var child = csite_node_first_child(pointer)
        while let node = child {
            let element = MarkupNode(node)
            if element.isElement {
                if stop(element) { return false }
                result.append(element)
                guard element.collect(into: &result, depth: depth + 1, stop: stop) else { return false }
            }
            child = csite_node_next_sibling(node)
        }
        return true
    }
}

/// `text` with every run of whitespace (including non-breaking spaces) made one space, trimmed.
func collapseWhitespace(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    var pendingSpace = false
    for scalar in text.unicodeScalars {
        if scalar.properties.isWhitespace || scalar == "\u{A0}" {
            pendingSpace = !out.isEmpty
        } else {
            if pendingSpace { out.unicodeScalars.append(" ") }
            pendingSpace = false
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}
