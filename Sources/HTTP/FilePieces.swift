import Glibc

/// A file read a piece at a time for a streamed response (`HTTPBodyStream`): opened at the
/// first piece (a HEAD never opens it), closed when the response is done with it, whether it
/// was sent whole or the client went away.
/// Confinement: used on one connection's loop only.
final class FilePieces {
    static let pieceSize = 64 * 1024
    private let path: String
    private var fd: Int32 = -1
    private var offset = 0
    private var failed = false

    init(path: String) { self.path = path }

    deinit { if fd >= 0 { close(fd) } }

    /// The next piece; nil at the end of the file or on an error (the response's length then
    /// does not add up, and the connection is dropped rather than sending a wrong body).
    func next() -> [UInt8]? {
        guard !failed else { return nil }
        if fd < 0 {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                failed = true
                return nil
            }
        }
        var piece = [UInt8](repeating: 0, count: Self.pieceSize)
        while true {
            let count = piece.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                failed = count < 0
                return nil
            }
            offset += count
            piece.removeLast(piece.count - count)
            return piece
        }
    }
}
