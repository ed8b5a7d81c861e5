/// Two revisions of one token file, as a reload sees them: a real `corkboard serve` on SIGHUP
/// (TokenReloadTests) and an in-process server's event streams (EventStreamTests).
public enum TokenFileRevisions {
    public static func tokens(_ grants: [String]) -> String {
        #"{"tokens":["# + grants.joined(separator: ",") + "]}"
    }

    public static let owner = #"{"token":"owner-token","role":"owner","boards":"*"}"#
    public static let first = tokens([
        owner, #"{"token":"ann","role":"editor","boards":"*"}"#, #"{"token":"bob","role":"viewer","boards":"*"}"#,
        #"{"token":"cid","role":"editor","boards":"*"}"#,
    ])
    /// Ann revoked, Bob promoted to editor, Cid as before.
    public static let second = tokens([
        owner, #"{"token":"bob","role":"editor","boards":"*"}"#, #"{"token":"cid","role":"editor","boards":"*"}"#,
    ])
}
