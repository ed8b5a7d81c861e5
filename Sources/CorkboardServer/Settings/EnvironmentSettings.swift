/// Reads `corkboard serve` settings from environment variables (`CORKBOARD_PORT`, ...):
/// a command-line option wins, then the variable, then the default.
public struct EnvironmentSettings: Sendable {
    public let variables: [String: String]

    public init(_ variables: [String: String]) { self.variables = variables }

    public struct InvalidValue: Error, Equatable, CustomStringConvertible {
        public let variable: String
        public let value: String
        public let expected: String
        public var description: String { "environment variable \(variable)='\(value)' is not \(expected)" }
    }

    /// The variable's value as it is, empty included, or nil when unset: for the one setting
    /// whose empty value means something (`CORKBOARD_WEB_ROOT=''`: the API only).
    public func value(_ name: String) -> String? {
        variables[name]
    }

    /// The variable's value, or nil when unset or empty.
    public func string(_ name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }

    public func integer<Number: FixedWidthInteger>(_ name: String, as type: Number.Type = Number.self) throws(InvalidValue) -> Number? {
        guard let text = string(name) else { return nil }
        guard let value = Number(text) else {
            throw InvalidValue(variable: name, value: text, expected: "a whole number in \(Number.min)...\(Number.max)")
        }
        return value
    }
}
