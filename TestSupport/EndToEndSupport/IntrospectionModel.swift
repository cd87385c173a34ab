import DesktopTestSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// One interface of an introspection document, normalised for comparison: member order,
/// whitespace and comments don't matter; names, types, directions, access and annotations do.
package struct InterfaceModel: Equatable, CustomStringConvertible {
    package struct Arg: Equatable {
        package var name: String?
        package var type: String
        package var direction: String
    }
    package struct Member: Equatable {
        package var args: [Arg] = []
        package var annotations: [String: String] = [:]
    }
    package struct Property: Equatable {
        package var type: String
        package var access: String
        package var annotations: [String: String] = [:]
    }

    package var annotations: [String: String] = [:]
    package var methods: [String: Member] = [:]
    package var signals: [String: Member] = [:]
    package var properties: [String: Property] = [:]

    package var description: String {
        func show(_ members: [String: Member]) -> String {
            members.sorted { $0.key < $1.key }.map { "  \($0.key)\($0.value.args.map { "\($0.direction) \($0.type) \($0.name ?? "")" }) \($0.value.annotations)" }
                .joined(separator: "\n")
        }
        return """
            annotations: \(annotations)
            methods:
            \(show(methods))
            signals:
            \(show(signals))
            properties:
            \(properties.sorted { $0.key < $1.key }.map { "  \($0.key) \($0.value)" }.joined(separator: "\n"))
            """
    }

    /// Parses `xml` and returns the interface called `name`, or nil when it is absent.
    package static func parse(_ xml: String, interface name: String) throws -> InterfaceModel? {
        let parser = XMLParser(data: Data(xml.utf8))
        let delegate = Delegate(interface: name)
        parser.delegate = delegate
        guard parser.parse() else {
            throw FixtureFileError("invalid introspection XML: \(parser.parserError.map { "\($0)" } ?? "unknown error")")
        }
        return delegate.model
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        let interface: String
        var model: InterfaceModel?
        private var inInterface = false
        private enum Current { case none, method(String), signal(String), property(String) }
        private var current = Current.none

        init(interface: String) { self.interface = interface }

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            switch element {
            case "interface":
                inInterface = attributes["name"] == interface
                if inInterface { model = InterfaceModel() }
            case "method" where inInterface:
                current = .method(attributes["name"] ?? "")
                model?.methods[attributes["name"] ?? ""] = Member()
            case "signal" where inInterface:
                current = .signal(attributes["name"] ?? "")
                model?.signals[attributes["name"] ?? ""] = Member()
            case "property" where inInterface:
                let name = attributes["name"] ?? ""
                current = .property(name)
                model?.properties[name] = Property(type: attributes["type"] ?? "", access: attributes["access"] ?? "")
            case "arg" where inInterface:
                switch current {
                case .method(let name):
                    model?.methods[name]?.args.append(Arg(name: attributes["name"], type: attributes["type"] ?? "",
                                                          direction: attributes["direction"] ?? "in"))
                case .signal(let name):
                    // Signal arguments are always out; the attribute is optional.
                    model?.signals[name]?.args.append(Arg(name: attributes["name"], type: attributes["type"] ?? "",
                                                          direction: attributes["direction"] ?? "out"))
                default: break
                }
            case "annotation" where inInterface:
                let key = attributes["name"] ?? "", value = attributes["value"] ?? ""
                switch current {
                case .none: model?.annotations[key] = value
                case .method(let name): model?.methods[name]?.annotations[key] = value
                case .signal(let name): model?.signals[name]?.annotations[key] = value
                case .property(let name): model?.properties[name]?.annotations[key] = value
                }
            default: break
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            switch element {
            case "interface": inInterface = false
            case "method", "signal", "property": current = .none
            default: break
            }
        }
    }
}
