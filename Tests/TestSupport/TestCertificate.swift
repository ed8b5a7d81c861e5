import Foundation

/// A self-signed certificate and its key, made at test time with the `openssl` command line
/// (nothing secret is ever committed): valid for `localhost` and `127.0.0.1`, so clients that
/// trust it (curl --cacert, Python's ssl, our own client) can verify the server.
public struct TestCertificate: Sendable {
    public let certificatePath: String
    public let keyPath: String
    /// The serial number as `openssl x509 -serial` prints it (upper-case hex), to tell two apart.
    public let serial: String

    /// Writes `<name>.crt` and `<name>.key` into `folder`. `serial` is in hex.
    public static func make(
        in folder: String, name: String = "server", serial: String = "01",
        commonName: String = "localhost"
    ) throws -> TestCertificate {
        let certificate = folder + "/\(name).crt"
        let key = folder + "/\(name).key"
        try openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", key, "-out", certificate, "-days", "2", "-set_serial", "0x" + serial,
            "-subj", "/CN=\(commonName)", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ])
        return TestCertificate(certificatePath: certificate, keyPath: key, serial: serial.uppercased())
    }

    /// Runs `openssl arguments...` (bounded), returning its standard output; throws with its
    /// standard error when it fails.
    @discardableResult
    public static func openssl(_ arguments: [String], timeout: Double = 30) throws -> String {
        guard let openssl = PythonTools.executableOnPath("openssl") else {
            throw PythonTools.Failure("no openssl on PATH: the TLS tests make their certificates with it")
        }
        let outcome = try PythonTools.run(openssl, arguments, timeout: timeout)
        guard outcome.succeeded else {
            throw PythonTools.Failure("openssl \(arguments.joined(separator: " ")) failed: \(outcome.standardError)")
        }
        return outcome.standardOutput
    }

    /// The serial of the certificate a TLS server on `port` presents (via `openssl s_client`),
    /// upper-case hex; nil if no handshake happened.
    public static func servedSerial(port: UInt16, serverName: String = "localhost") throws -> String? {
        guard let openssl = PythonTools.executableOnPath("openssl") else {
            throw PythonTools.Failure("no openssl on PATH")
        }
        let script =
            "'\(openssl)' s_client -connect 127.0.0.1:\(port) -servername \(serverName) </dev/null 2>/dev/null"
            + " | '\(openssl)' x509 -noout -serial"
        let outcome = try PythonTools.run("/bin/sh", ["-c", script], timeout: 30)
        let line = outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard outcome.succeeded, line.hasPrefix("serial=") else { return nil }
        return String(line.dropFirst("serial=".count))
    }
}
