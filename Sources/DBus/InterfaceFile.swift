/// A method, property or signal declaration of the interface `Owner`, as introspection lists it:
/// what an interface's file is written from when no service is running.
package protocol InterfaceMember<Owner>: Sendable {
    associatedtype Owner: DBusInterface
    var introspected: IntrospectedMember { get }
}

/// One member as introspection writes it (made by the declarations, read by `interfaceFile`).
package struct IntrospectedMember {
    fileprivate enum Kind {
        case method(MethodInfo), property(PropertyInfo), signal(SignalInfo)
    }

    fileprivate let kind: Kind
}

extension MethodDeclaration: InterfaceMember {
    package var introspected: IntrospectedMember { IntrospectedMember(kind: .method(info)) }
}

extension PropertyDeclaration: InterfaceMember {
    package var introspected: IntrospectedMember { IntrospectedMember(kind: .property(info)) }
}

extension SignalDeclaration: InterfaceMember {
    package var introspected: IntrospectedMember { IntrospectedMember(kind: .signal(info)) }
}

extension DBusInterface {
    /// The interface's introspection file, as `share/dbus-1/interfaces` holds one: the
    /// `<interface>` element written by the writer `Introspect` uses — its methods, then signals,
    /// then properties, each in the order `members` gives them (the order the service binds them,
    /// and the element is what the service introspects as) — after `comment`, an XML comment on
    /// what the element cannot say (errors, the keys of a dictionary).
    package static func interfaceFile(members: [any InterfaceMember<Self>], comment: String) -> String {
        var methods: [MethodInfo] = [], properties: [PropertyInfo] = [], signals: [SignalInfo] = []
        for member in members {
            switch member.introspected.kind {
            case .method(let info): methods.append(info)
            case .property(let info): properties.append(info)
            case .signal(let info): signals.append(info)
            }
        }
        let interface = InterfaceDescription(name: name, doc: doc, methods: methods, properties: properties, signals: signals)
        return Introspection.document(interfaces: [interface], comment: comment)
    }
}
