import Foundation
import TestSupport

/// Key pairs for RS256 and ES256 tokens, made at test time with the `openssl` command line
/// (nothing secret is committed), and their public halves written as PEM and as JWKs. The JWK
/// parameters come from openssl's own output, not from the server's code. The files go with
/// the value.
public final class TokenKeyMaterial {
    public let directory: TemporaryDirectory
    public var folder: String { directory.path }
    /// PEM private keys (PKCS #8) and their public halves, by name.
    public let ec: KeyPair
    public let otherEC: KeyPair
    public let rsa: KeyPair
    public let shortRSA: KeyPair

    public struct KeyPair: Sendable {
        public let privateKey: String
        public let publicKey: String
    }

    public init() throws {
        directory = try TemporaryDirectory("corkboard-token-keys")
        let folder = directory.path
        ec = try Self.pair(folder, "ec", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])
        otherEC = try Self.pair(folder, "other-ec", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])
        rsa = try Self.pair(folder, "rsa", ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"])
        shortRSA = try Self.pair(folder, "rsa-1024", ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024"])
    }

    private static func pair(_ folder: String, _ name: String, _ options: [String]) throws -> KeyPair {
        let pair = KeyPair(privateKey: "\(folder)/\(name).key", publicKey: "\(folder)/\(name).pub")
        try TestCertificate.openssl(["genpkey"] + options + ["-out", pair.privateKey])
        try TestCertificate.openssl(["pkey", "-in", pair.privateKey, "-pubout", "-out", pair.publicKey])
        return pair
    }

    /// The public key's text, as the server reads it.
    public func pem(_ pair: KeyPair) throws -> String {
        try String(contentsOfFile: pair.publicKey, encoding: .utf8)
    }

    /// An EC P-256 public key as a JWK: x and y are the last 64 bytes of its DER
    /// SubjectPublicKeyInfo (the uncompressed point 04||x||y ends it).
    public func ecJWK(_ pair: KeyPair, kid: String?, extra: String = "") throws -> String {
        let der = try Data(contentsOf: URL(fileURLWithPath: derFile(pair)))
        let point = der.suffix(64)
        let kidField = kid.map { #","kid":"\#($0)""# } ?? ""
        return #"{"kty":"EC","crv":"P-256","x":"\#(Self.base64url(point.prefix(32)))","y":"\#(Self.base64url(point.suffix(32)))"\#(kidField)\#(extra)}"#
    }

    /// An RSA public key as a JWK: the modulus from `openssl rsa -modulus`, the exponent 65537
    /// (openssl genpkey's).
    public func rsaJWK(_ pair: KeyPair, kid: String?, extra: String = "") throws -> String {
        let output = try TestCertificate.openssl(["rsa", "-pubin", "-in", pair.publicKey, "-modulus", "-noout"])
        let hex = output.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "Modulus=", with: "")
        var modulus = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            modulus.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        let kidField = kid.map { #","kid":"\#($0)""# } ?? ""
        return #"{"kty":"RSA","n":"\#(Self.base64url(modulus))","e":"AQAB"\#(kidField)\#(extra)}"#
    }

    public func jwks(_ keys: [String]) -> String {
        #"{"keys":[\#(keys.joined(separator: ","))]}"#
    }

    private func derFile(_ pair: KeyPair) throws -> String {
        let path = pair.publicKey + ".der"
        try TestCertificate.openssl(["pkey", "-pubin", "-in", pair.publicKey, "-outform", "DER", "-out", path])
        return path
    }

    public static func base64url(_ data: some DataProtocol) -> String {
        Data(data).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
