import CDBus

/// Signal subscriptions, and the owners of well-known names they follow.
///
/// A signal carries its sender's unique name, and libdbus hands a connection every signal
/// addressed to it, whatever its match rules say: without checking the owner, any peer could send
/// a signal "from" a well-known name straight to us (the hole GDBus closed for CVE-2024-34397). So
/// a subscription to a well-known sender follows that name's owner (`GetNameOwner`, then
/// `NameOwnerChanged` from the bus) and takes signals only from it; the same following serves
/// `onOwnerChange`.
extension Connection {
    struct Subscription {
        let rule: MatchRule
        /// Whether cancelling removes `rule` from the bus (not for a rule the name-following added).
        let ownsMatch: Bool
        /// The well-known name this subscription follows the owner of, released when cancelled.
        let followed: String?
        let handler: (Message) -> Void
    }

    struct FollowedName {
        var followers = 1
        /// The unique name owning it ("" for none); nil until a lookup answers, and for a bus that
        /// can't answer: signals are delivered unchecked then, as the bus routed them.
        var owner: String?
    }

    /// A signal subscription; cancel it to stop delivery (and remove its match rule from the bus).
    package final class SignalSubscription {
        fileprivate weak var connection: Connection?
        fileprivate let id: UInt64
        fileprivate init(connection: Connection, id: UInt64) {
            self.connection = connection
            self.id = id
        }
        package func cancel() {
            connection?.unsubscribe(id)
            connection = nil
        }
    }

    // MARK: Subscribing

    /// Delivers `signal` to `handler` on the loop thread, decoded as declared, from `sender` (a
    /// well-known name: only from its owner at the time) and `path` when given. Blocking: when it
    /// returns, the bus has the match rule and the sender's owner is known, so nothing sent
    /// afterwards is missed and nothing forged gets through. A signal whose arguments are not the
    /// declared ones goes to `onMalformed` instead.
    package func subscribe<Owner, each Argument: DBusArgument>(
        _ signal: SignalDeclaration<Owner, Arguments<repeat each Argument>>, sender: BusName? = nil, path: ObjectPath? = nil,
        onMalformed: ((DBusError) -> Void)? = nil, _ handler: @escaping (repeat each Argument) -> Void
    ) throws(DBusError) -> SignalSubscription {
        let rule = MatchRule(sender: sender, path: path, interface: Owner.name, member: signal.name)
        let followed = Self.wellKnownSender(of: rule)
        if let followed { try followConfirmed(followed) }
        do {
            try addMatchBlocking(rule)
        } catch {
            if let followed { unfollow(followed) }
            throw error
        }
        return register(Subscription(rule: rule, ownsMatch: true, followed: followed) { message in
            do throws(DBusError) {
                let values = try signal.arguments(of: message)
                handler(repeat each values)
            } catch {
                onMalformed?(error)
            }
        })
    }

    /// `subscribe(signal, sender: object.destination, path: object.path)`: the signal as `object` emits it.
    package func subscribe<Owner, each Argument: DBusArgument>(
        _ signal: SignalDeclaration<Owner, Arguments<repeat each Argument>>, from object: RemoteObject,
        onMalformed: ((DBusError) -> Void)? = nil, _ handler: @escaping (repeat each Argument) -> Void
    ) throws(DBusError) -> SignalSubscription {
        try subscribe(signal, sender: object.destination, path: object.path, onMalformed: onMalformed, handler)
    }

    /// Calls `handler` on the loop thread whenever `name` changes owner, with the new owner's
    /// unique name, or nil when the name is left without one. Blocking, like `subscribe`.
    package func onOwnerChange(of name: BusName, _ handler: @escaping (_ newOwner: String?) -> Void) throws(DBusError) -> SignalSubscription {
        try followConfirmed(name.rawValue)
        return register(Subscription(rule: Self.ownerChanges(of: name.rawValue), ownsMatch: false, followed: name.rawValue) { message in
            // The rule admits only the bus's own (sss) signal: anything else is not the change followed.
            guard let (_, _, newOwner) = try? BusDriver.nameOwnerChanged.arguments(of: message) else { return }
            handler(newOwner.isEmpty ? nil : newOwner)
        })
    }

    /// Delivers signals matching `rule` to `handler` on the loop thread, undecoded. The match is
    /// added to the bus without waiting (or not at all with `addMatch: false`, when the caller
    /// has added it with `addMatchBlocking`); a well-known sender's owner is looked up meanwhile.
    package func subscribe(_ rule: MatchRule, addMatch: Bool = true, handler: @escaping (Message) -> Void) -> SignalSubscription {
        let followed = Self.wellKnownSender(of: rule)
        if let followed { follow(followed) }
        if addMatch { dbus_bus_add_match(raw, rule.description, nil) } // NULL error: does not block
        return register(Subscription(rule: rule, ownsMatch: true, followed: followed, handler: handler))
    }

    /// Adds a match rule and waits for the bus to confirm it (blocking, at most `timeout`: for set-up).
    package func addMatchBlocking(_ rule: MatchRule, timeout: Duration = Connection.busCallTimeout) throws(DBusError) {
        let add = BusDriver.addMatch.call(on: BusDriver.object, rule.description)
        try add.decodeReply(callBlocking(add.message, timeout: timeout))
    }

    private func register(_ subscription: Subscription) -> SignalSubscription {
        let id = nextSubscriptionID
        nextSubscriptionID += 1
        subscriptions[id] = subscription
        return SignalSubscription(connection: self, id: id)
    }

    private func unsubscribe(_ id: UInt64) {
        guard let subscription = subscriptions.removeValue(forKey: id) else { return }
        if subscription.ownsMatch, isConnected { dbus_bus_remove_match(raw, subscription.rule.description, nil) }
        if let followed = subscription.followed { unfollow(followed) }
    }

    // MARK: Delivering

    /// Hands a signal to every subscription it matches (on the loop thread, from the filter).
    func deliver(_ message: Message) {
        if !followedNames.isEmpty { noteOwnerChange(message) }
        for subscription in Array(subscriptions.values)
        where subscription.rule.matches(message) && fromExpectedSender(message, subscription.rule) {
            subscription.handler(message)
        }
    }

    /// Whether a signal matched by `rule` really comes from the rule's well-known sender.
    private func fromExpectedSender(_ message: Message, _ rule: MatchRule) -> Bool {
        guard let name = Self.wellKnownSender(of: rule), let owner = followedNames[name]?.owner else { return true }
        return !owner.isEmpty && message.sender == owner
    }

    /// Records a `NameOwnerChanged` from the bus itself for a followed name (one with other
    /// arguments is not the bus's: ignored).
    private func noteOwnerChange(_ message: Message) {
        guard message.sender == BusDriver.name.rawValue, message.interface == BusDriver.name.rawValue,
              message.member == BusDriver.nameOwnerChanged.name.rawValue,
              let (name, _, newOwner) = try? BusDriver.nameOwnerChanged.arguments(of: message),
              followedNames[name] != nil
        else { return }
        followedNames[name]?.owner = newOwner
    }

    // MARK: Following owners

    /// A rule's sender when it is a well-known name other than the bus itself (whose signals
    /// carry its name as sender).
    private static func wellKnownSender(of rule: MatchRule) -> String? {
        guard let sender = rule.sender, !sender.isUnique, sender != BusDriver.object.destination else { return nil }
        return sender.rawValue
    }

    private static func ownerChanges(of name: String) -> MatchRule {
        MatchRule(sender: BusDriver.object.destination, path: BusDriver.object.path, interface: BusDriver.name,
                  member: BusDriver.nameOwnerChanged.name, arg0: name)
    }

    /// Follows the owner of `name`: its changes (`NameOwnerChanged`), and its owner now, which
    /// is unknown until the lookup answers.
    private func follow(_ name: String) {
        if followedNames[name] != nil {
            followedNames[name]?.followers += 1
            return
        }
        followedNames[name] = FollowedName()
        dbus_bus_add_match(raw, Self.ownerChanges(of: name).description, nil)
        lookUpOwner(of: name)
    }

    /// `follow`, but waiting for the match rule and the owner (blocking).
    private func followConfirmed(_ name: String) throws(DBusError) {
        let known = followedNames[name] != nil
        if known {
            followedNames[name]?.followers += 1
        } else {
            followedNames[name] = FollowedName()
        }
        do {
            // The rule first: a change after the answer is then seen, and one before is older.
            if !known { try addMatchBlocking(Self.ownerChanges(of: name)) }
            if followedNames[name]?.owner == nil { followedNames[name]?.owner = try currentOwner(of: name) }
        } catch {
            unfollow(name)
            throw error
        }
    }

    private func unfollow(_ name: String) {
        guard let followed = followedNames[name] else { return }
        if followed.followers > 1 {
            followedNames[name]?.followers -= 1
            return
        }
        followedNames[name] = nil
        if isConnected { dbus_bus_remove_match(raw, Self.ownerChanges(of: name).description, nil) }
    }

    /// The owner of `name` now ("" for none), asked of the bus (blocking).
    private func currentOwner(of name: String) throws(DBusError) -> String {
        let lookup = BusDriver.getNameOwner.call(on: BusDriver.object, name)
        do {
            return try lookup.decodeReply(callBlocking(lookup.message))
        } catch where error.name == DBusError.Name.nameHasNoOwner {
            return ""
        }
    }

    /// Asks the bus for the owner of `name` without waiting; the answer fills it in unless a
    /// `NameOwnerChanged` came first.
    private func lookUpOwner(of name: String) {
        call(BusDriver.getNameOwner.call(on: BusDriver.object, name)) { [weak self] result in
            // A change seen meanwhile is newer than this answer only if it came after it, and the
            // bus sends both in order: applying each as it arrives keeps the latest.
            guard let self, followedNames[name] != nil, followedNames[name]?.owner == nil else { return }
            switch result {
            case .success(let owner): followedNames[name]?.owner = owner
            case .failure(let error) where error.name == DBusError.Name.nameHasNoOwner: followedNames[name]?.owner = ""
            case .failure: break // not a bus that can tell: leave signals unchecked
            }
        }
    }
}

extension SignalDeclaration {
    /// The arguments `message` carries, decoded as this signal declares them.
    func arguments<each Argument: DBusArgument>(of message: Message) throws(DBusError) -> (repeat each Argument)
    where Payload == Arguments<repeat each Argument> {
        try message.decode(repeat (each Argument).self)
    }
}
