import Foundation

/// A fresh folder under the system's temporary folder, removed when released.
public final class TemporaryDirectory {
    public let path: String

    public init(_ label: String = "corkboard-test") throws {
        path = NSTemporaryDirectory() + "/\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    @discardableResult
    public func write(_ relativePath: String, _ contents: String) throws -> String {
        try write(relativePath, Data(contents.utf8))
    }

    @discardableResult
    public func write(_ relativePath: String, _ data: Data) throws -> String {
        let full = path + "/" + relativePath
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: full))
        return full
    }
}
