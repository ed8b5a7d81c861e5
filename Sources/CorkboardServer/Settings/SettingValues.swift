import CorkboardHub
import Dispatch

/// Reads one setting the way every `serve` option is read: the command line's value, else
/// the CORKBOARD_ variable's, else the default; and turns numbers into limits, rates and
/// timeouts, refusing values that mean nothing.
struct SettingValues {
    let environment: EnvironmentSettings

    func string(_ option: String?, _ variable: String) -> String? {
        option ?? environment.string(variable)
    }

    func integer<Number: FixedWidthInteger>(_ option: Number?, _ variable: String) throws(ServeSettingError) -> Number? {
        if let option { return option }
        do {
            return try environment.integer(variable, as: Number.self)
        } catch {
            throw .invalidVariable(error)
        }
    }

    /// A flag, also set by its variable holding `1`.
    func flag(_ option: Bool, _ variable: String) -> Bool {
        option || environment.string(variable) == "1"
    }

    /// A count limit: nil keeps the default, 0 turns the limit off.
    func limit(_ value: Int?, _ option: String, default defaultLimit: Int?) throws(ServeSettingError) -> Int? {
        guard let value else { return defaultLimit }
        guard value >= 0 else { throw .negativeLimit(option: option) }
        return value == 0 ? nil : value
    }

    /// A per-second rate of messages: nil keeps the default, 0 turns the limit off.
    func rate(_ value: Int?, _ option: String, default defaultRate: RateLimit?) throws(ServeSettingError) -> RateLimit? {
        guard let value else { return defaultRate }
        guard value >= 0 else { throw .negativeRate(option: option) }
        return value == 0 ? nil : RateLimit(perSecond: Double(value))
    }

    /// A timeout in whole seconds (at least 1): nil keeps the default.
    func seconds(_ value: Int?, _ option: String, default defaultTimeout: DispatchTimeInterval) throws(ServeSettingError) -> DispatchTimeInterval {
        guard let value else { return defaultTimeout }
        guard value >= 1 else { throw .timeoutUnderOneSecond(option: option) }
        return .seconds(value)
    }

    /// Refuses a value under the smallest the server can work with.
    func require(_ value: Int, atLeast minimum: Int, _ option: String) throws(ServeSettingError) {
        guard value >= minimum else { throw .belowMinimum(option: option, minimum: minimum) }
    }
}
