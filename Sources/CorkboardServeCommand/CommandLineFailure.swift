import Foundation

/// One line on standard error, exit status 1: what a person or a script can act on.
public func fail(_ error: some Error & CustomStringConvertible) -> Never {
    FileHandle.standardError.write(Data("corkboard: error: \(error)\n".utf8))
    Foundation.exit(1)
}
