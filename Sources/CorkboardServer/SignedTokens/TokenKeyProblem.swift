/// Why a public key file or a JWK Set file is not taken, as one line for the operator (the
/// server does not start, or a reload keeps the previous keys).
enum TokenKeyProblem: Error, CustomStringConvertible {
    case unreadable
    case noPublicKeyBlock
    case notAPublicKeyBlock(label: String)
    case undecodablePublicKey(block: Int)
    case unsupportedKeyType(String)
    case rsaKeyTooShort(bits: Int)
    case unsupportedCurve(String)
    case failsPublicKeyCheck
    case jwkSetNotJSON(String)
    case jwkSetWithoutKeys
    case jwkNotAnObject
    case jwkUnsupportedKeyType(String)
    case jwkUnsupportedCurve(String)
    case jwkMissingParameter(String)
    case jwkKeyIDNotAString
    case jwkParameterOfWrongLength(String, expected: Int, found: Int)
    case jwkAlgorithmDoesNotFitKey(alg: String, expected: TokenAlgorithm)
    case jwkUnusableParameters
    case repeatedKeyID(String)
    case noSigningKey
    /// A problem of one key of several: `place` is "keys[2]" or "public key 2".
    indirect case inKey(place: String, TokenKeyProblem)

    var description: String {
        switch self {
        case .unreadable:
            "cannot be read"
        case .noPublicKeyBlock:
            "holds no -----BEGIN PUBLIC KEY----- block"
        case .notAPublicKeyBlock(let label) where label.contains("PRIVATE"):
            "holds a \(label) block: give the server the public key only (openssl pkey -in key.pem -pubout)"
        case .notAPublicKeyBlock(let label):
            "holds a \(label) block; only PUBLIC KEY blocks are read (openssl pkey -pubin -in key.pem)"
        case .undecodablePublicKey(let block):
            "public key \(block) is not a valid SubjectPublicKeyInfo"
        case .unsupportedKeyType(let type):
            "a \(type) key is not supported: RSA (RS256) or EC P-256 (ES256)"
        case .rsaKeyTooShort(let bits):
            "an RSA key of \(bits) bits is too short: at least 2048"
        case .unsupportedCurve(let curve):
            "an EC key on \(curve) is not supported: P-256 (prime256v1) only"
        case .failsPublicKeyCheck:
            "the key fails OpenSSL's public key check (an RSA exponent must be odd and at least 65537)"
        case .jwkSetNotJSON(let reason):
            "is not JSON: \(reason)"
        case .jwkSetWithoutKeys:
            #"is not a JWK Set: an object with a "keys" array is expected"#
        case .jwkNotAnObject:
            "is not a JSON object"
        case .jwkUnsupportedKeyType(let type):
            #"kty "\#(type)" is not supported: "RSA" or "EC""#
        case .jwkUnsupportedCurve(let curve):
            #"crv "\#(curve)" is not supported: "P-256" only"#
        case .jwkMissingParameter(let name):
            #""\#(name)" is missing or is not base64url"#
        case .jwkParameterOfWrongLength(let name, let expected, let found):
            #""\#(name)" is \#(found) bytes, not \#(expected) (leading zeros are kept)"#
        case .jwkKeyIDNotAString:
            #""kid" must be a string"#
        case .jwkAlgorithmDoesNotFitKey(let alg, let expected):
            #"alg "\#(alg)" does not fit the key: "\#(expected.rawValue)" or none"#
        case .jwkUnusableParameters:
            "its parameters do not make a valid public key"
        case .repeatedKeyID(let kid):
            #"kid "\#(kid)" is given to two keys"#
        case .noSigningKey:
            #"holds no key to check signatures with (every key has a "use" other than "sig")"#
        case .inKey(let place, let problem):
            "\(place): \(problem)"
        }
    }
}
