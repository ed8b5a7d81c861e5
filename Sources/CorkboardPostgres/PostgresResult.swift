import CPostgres

/// The rows of one statement, copied out of libpq's result in text format (the store's
/// few columns are numbers, booleans and JSON text; every value is decoded by its reader).
public struct PostgresRows: Sendable, Hashable {
    public var columns: [String]
    public var values: [[String?]]

    public init(columns: [String] = [], values: [[String?]] = []) {
        self.columns = columns
        self.values = values
    }

    init(copying result: OpaquePointer) {
        let fieldCount = Int(PQnfields(result))
        columns = (0..<fieldCount).map { String(cString: PQfname(result, Int32($0))) }
        values = (0..<Int(PQntuples(result))).map { row in
            (0..<fieldCount).map { field in
                PQgetisnull(result, Int32(row), Int32(field)) == 1
                    ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(field)))
            }
        }
    }

    public var count: Int { values.count }

    /// The value of `column` in `row`, or nil when the column is absent or the value is NULL.
    public func text(_ row: Int, _ column: String) -> String? {
        guard let index = columns.firstIndex(of: column) else { return nil }
        return values[row][index]
    }

    public func int(_ row: Int, _ column: String) throws(PostgresError) -> Int {
        guard let text = text(row, column), let value = Int(text) else {
            throw .unexpected("column \(column) of row \(row) is not an integer")
        }
        return value
    }

    /// Nil for NULL; an error for a value that is not an integer.
    public func optionalInt(_ row: Int, _ column: String) throws(PostgresError) -> Int? {
        guard text(row, column) != nil else { return nil }
        return try int(row, column)
    }

    public func bool(_ row: Int, _ column: String) throws(PostgresError) -> Bool {
        switch text(row, column) {
        case "t": return true
        case "f": return false
        default: throw .unexpected("column \(column) of row \(row) is not a boolean")
        }
    }

    public func string(_ row: Int, _ column: String) throws(PostgresError) -> String {
        guard let text = text(row, column) else { throw .unexpected("column \(column) of row \(row) is NULL or absent") }
        return text
    }
}

/// Why a statement did not run: the server refused it (with its SQLSTATE), the connection
/// is down (nothing is known to have run), or a reply was not what the store expected.
public enum PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    case server(sqlState: String, message: String)
    case connection(String)
    case unexpected(String)

    public var description: String {
        switch self {
        case .server(let state, let message): "PostgreSQL error \(state): \(message)"
        case .connection(let reason): "no connection to PostgreSQL: \(reason)"
        case .unexpected(let reason): "unexpected reply from PostgreSQL: \(reason)"
        }
    }

    static func from(_ result: OpaquePointer) -> PostgresError {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? "?????"
        // The primary message alone (a RAISE's text), else the whole report.
        let message =
            (PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
            ?? String(cString: PQresultErrorMessage(result))).trimmingWhitespace()
        return .server(sqlState: state, message: message)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var text = Substring(self)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        return String(text)
    }
}
