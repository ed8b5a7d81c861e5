/// The version `corkboard --version` prints and `/metrics` reports in `corkboard_build_info`:
/// one constant, raised with each release.
public enum CorkboardVersion {
    public static let current = "0.27.0"

    /// The Swift compiler the binary was built with, to the minor version.
    public static let swift: String = {
        #if compiler(>=6.4)
            return "6.4+"
        #elseif compiler(>=6.3)
            return "6.3"
        #elseif compiler(>=6.2)
            return "6.2"
        #elseif compiler(>=6.1)
            return "6.1"
        #else
            return "6.0"
        #endif
    }()

    /// What `--version` prints: `corkboard 0.27.0 (Swift 6.3)`.
    public static var line: String { "corkboard \(current) (Swift \(swift))" }
}
