/// Board epochs (docs/protocol.md#1-the-model): opaque strings that change only when a
/// board's history is replaced, so a client holding `(epoch, seq)` from before knows it
/// cannot resume.
public enum Epoch {
    /// A fresh epoch: 16 random hex digits, unique enough that two boards or two imports
    /// never share one by accident.
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
