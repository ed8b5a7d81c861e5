import ArgumentParser
import CorkboardServer
import Foundation

extension ServeSettingError {
    /// A usage error: ArgumentParser prints `Error: …` with the usage and exits with 64.
    public var usageError: ValidationError { ValidationError(description) }
}

extension ServeSettings {
    /// The settings of this process's options and environment, or a usage error.
    public static func fromCommandLine(_ options: ServeOptions) throws(ValidationError) -> ServeSettings {
        do {
            return try ServeSettings(options: options, environment: EnvironmentSettings(ProcessInfo.processInfo.environment))
        } catch {
            throw error.usageError
        }
    }
}
