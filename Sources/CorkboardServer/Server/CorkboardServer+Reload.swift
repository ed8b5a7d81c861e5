import CorkboardHub
import TLS

extension CorkboardServer {
    /// Re-reads what can change while the server runs, without dropping a connection
    /// (`corkboard serve` calls it on SIGHUP). Each part reloads on its own: one that fails
    /// logs why and keeps what it had, and the others still reload.
    ///
    /// The parts: the token file, and the TLS certificate and key. Add further parts as one more step here.
    public func reload() {
        logger.notice("reloading")
        reloadTokens()
        reloadRevocations()
        reloadWebhooks()
        reloadCertificate()
    }

    /// Reads the revocations file again; one that cannot be read or is refused changes nothing.
    private func reloadRevocations() {
        guard let path = configuration.revocationsFile else { return }
        reload("revocations", from: [path]) { () throws(TokenFileError) in hub.replaceListedRevocations(with: try RevocationsFile.read(path)) }
    }

    /// Reads the webhooks file again; one that cannot be read or is refused changes nothing.
    private func reloadWebhooks() {
        guard let path = configuration.webhooksFile, let webhooks else { return }
        reload("webhooks", from: [path]) { () throws(TokenFileError) in webhooks.replaceFileEndpoints(try WebhooksFile.read(path)) }
        // A new endpoint of the file receives what is committed from the reload on.
        if let problem = webhooks.startFileEndpoints() { logger.error("webhooks: new endpoints not started, they start at their first delivery: \(problem)") }
    }

    /// Puts what `read` reads from `files` in force, or, when it throws, logs why, counts the
    /// failure (`corkboard_token_reload_failures_total`) and keeps what was in force.
    private func reload(_ what: String, from files: [String], _ read: () throws(TokenFileError) -> Void) {
        do {
            try read()
            logger.info("reloaded the \(what) (\(files.joined(separator: ", ")))")
        } catch {
            metrics.tokenReloadFailed()
            logger.error("\(what) not reloaded, the previous ones stay in force: \(error)")
        }
    }

    /// New connections get the new certificate; open ones keep the one they were made with.
    private func reloadCertificate() {
        guard let certificate else { return }
        do {
            try certificate.reload()
            logger.notice("TLS certificate reloaded from \(certificate.files.certificate)")
        } catch {
            logger.error("TLS certificate not reloaded, still serving the previous one: \(error)")
        }
    }

    /// Reads the token file, the token secret file and the key files again and puts them in
    /// force: members whose token was revoked (or whose secret or key was removed) are disconnected (`error`
    /// `forbidden`, close 1008), those whose role changed are closed with 1012 to join again.
    /// A file that cannot be read or is refused changes nothing: the error is logged and
    /// counted (`corkboard_token_reload_failures_total`).
    private func reloadTokens() {
        let files = [configuration.tokenFile, configuration.tokenSecretFile, configuration.tokenPublicKeyFile, configuration.tokenJWKSFile]
            .compactMap { $0 }
        guard !files.isEmpty else { return }
        reload("tokens", from: files) { () throws(TokenFileError) in if let tokens = try ServerAccess.load(configuration) { hub.replaceAccess(with: tokens) } }
    }
}
