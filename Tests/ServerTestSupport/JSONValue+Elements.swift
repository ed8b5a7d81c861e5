import CorkboardModel

extension JSONValue {
    /// The values of an array, nil for any other value.
    public var elements: [JSONValue]? {
        guard case .array(let values) = self else { return nil }
        return values
    }
}
