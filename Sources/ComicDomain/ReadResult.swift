/// The outcome of reading a storage file. Reading never throws: bad content is a state the
/// service serves as "no current chapter" and logs once.
package enum ReadResult<Value> {
    /// The file does not exist.
    case missing
    /// The file holds a valid value.
    case valid(Value)
    /// The file exists but cannot be used; `reason` names the file and says why, e.g.
    /// "/…/currentChapterData.json is a directory, not a regular file" or
    /// "/…/currentChapterData.json: chapter 0 is out of range 1…99999".
    case invalid(reason: String)

    /// The value when valid, else nil.
    package var value: Value? {
        if case .valid(let value) = self { return value }
        return nil
    }
}

extension ReadResult: Sendable where Value: Sendable {}
extension ReadResult: Equatable where Value: Equatable {}
