/// Introspection XML generated from interface declarations (D-Bus specification, "Introspection
/// Data Format"), with doc strings as `org.gtk.GDBus.DocString` annotations.
enum Introspection {
    static let doctype = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        """

    /// A whole document: the interfaces of one object and its direct children, after `comment`
    /// (an interface file's: text that holds no `--`; its lines are indented to line up).
    static func document(interfaces: [InterfaceDescription], children: [String] = [], comment: String? = nil) -> String {
        var xml = doctype + "\n"
        if let comment {
            precondition(!comment.contains("--"), "an XML comment cannot hold '--'")
            xml += "<!-- " + comment.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n     ") + " -->\n"
        }
        xml += "<node>\n"
        for interface in interfaces { xml += element(for: interface, indent: "  ") }
        for child in children { xml += "  <node name=\"\(escaped(child))\"/>\n" }
        xml += "</node>\n"
        return xml
    }

    /// One `<interface>` element.
    static func element(for interface: InterfaceDescription, indent: String = "  ") -> String {
        let inner = indent + "  "
        var xml = "\(indent)<interface name=\"\(interface.name)\">\n"
        xml += docAnnotation(interface.doc, indent: inner)
        for method in interface.methods {
            let body = docAnnotation(method.doc, indent: inner + "  ")
                + method.inputs.map { arg($0, direction: "in", indent: inner + "  ") }.joined()
                + method.outputs.map { arg($0, direction: "out", indent: inner + "  ") }.joined()
            xml += tag("method", name: method.name.rawValue, body: body, indent: inner)
        }
        for signal in interface.signals {
            let body = docAnnotation(signal.doc, indent: inner + "  ")
                + signal.arguments.map { arg($0, direction: nil, indent: inner + "  ") }.joined()
            xml += tag("signal", name: signal.name.rawValue, body: body, indent: inner)
        }
        for property in interface.properties {
            let open = "\(inner)<property name=\"\(escaped(property.name))\" type=\"\(escaped(property.signature.rawValue))\" access=\"\(property.access.rawValue)\""
            var body = docAnnotation(property.doc, indent: inner + "  ")
            if property.emits != .emitsValue {
                body += annotation("org.freedesktop.DBus.Property.EmitsChangedSignal", property.emits.rawValue, indent: inner + "  ")
            }
            xml += body.isEmpty ? open + "/>\n" : open + ">\n" + body + "\(inner)</property>\n"
        }
        xml += "\(indent)</interface>\n"
        return xml
    }

    private static func tag(_ kind: String, name: String, body: String, indent: String) -> String {
        body.isEmpty
            ? "\(indent)<\(kind) name=\"\(escaped(name))\"/>\n"
            : "\(indent)<\(kind) name=\"\(escaped(name))\">\n\(body)\(indent)</\(kind)>\n"
    }

    private static func arg(_ info: ArgumentInfo, direction: String?, indent: String) -> String {
        let directionAttribute = direction.map { " direction=\"\($0)\"" } ?? ""
        return "\(indent)<arg name=\"\(escaped(info.name))\" type=\"\(escaped(info.signature.rawValue))\"\(directionAttribute)/>\n"
    }

    private static func docAnnotation(_ doc: String?, indent: String) -> String {
        guard let doc else { return "" }
        return annotation("org.gtk.GDBus.DocString", doc, indent: indent)
    }

    private static func annotation(_ name: String, _ value: String, indent: String) -> String {
        "\(indent)<annotation name=\"\(name)\" value=\"\(escaped(value))\"/>\n"
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            default: out.append(character)
            }
        }
        return out
    }
}
