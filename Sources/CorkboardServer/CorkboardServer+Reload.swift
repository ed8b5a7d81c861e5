import TLS

extension CorkboardServer {
    /// Re-reads what can change while the server runs, without dropping a connection
    /// (`corkboard serve` calls it on SIGHUP). Each part reloads on its own: one that fails
    /// logs why and keeps what it had, and the others still reload.
    ///
    /// Today: the TLS certificate and key. Add further parts as one more step here.
    public func reload() {
        logger.notice("reloading")
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
}
