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
        reloadCertificate()
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

    /// Reads the token file again and puts it in force: members whose token was revoked are
    /// disconnected (`error` `forbidden`, close 1008), those whose role changed are closed
    /// with 1012 to join again. A file that cannot be read or parsed changes nothing.
    private func reloadTokens() {
        guard let path = configuration.tokenFile else { return }
        do {
            let tokens = try TokenFile(contentsOf: path)
            hub.replaceAccess(with: tokens)
            logger.info("reloaded the token file \(path)")
        } catch {
            logger.error("token file not reloaded, the previous one stays in force: \(error)")
        }
    }
}
