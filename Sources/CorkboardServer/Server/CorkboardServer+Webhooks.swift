import CorkboardStore
import Logging

extension CorkboardServer {
    /// The webhooks' deliverer, with the endpoints of the webhooks file (refused at start: the
    /// server does not start). Nil for a store that keeps no webhooks.
    static func makeWebhooks(
        _ configuration: ServerConfiguration, store: BoardStore, metrics: ServerMetrics, logger: Logger
    ) throws(StartupError) -> WebhookDeliverer? {
        var fileEndpoints: [WebhookEndpoint] = []
        if let path = configuration.webhooksFile {
            do {
                fileEndpoints = try WebhooksFile.read(path)
            } catch {
                throw .webhooksUnusable(error.description)
            }
        }
        guard let webhookStore = store as? any BoardStore & WebhookStore else {
            if configuration.webhooksFile != nil { throw .webhooksUnusable("this store keeps no webhooks") }
            return nil
        }
        return WebhookDeliverer(
            store: webhookStore, node: (store as? any ClusterSignals)?.nodeName ?? "local", fileEndpoints: fileEndpoints,
            settings: configuration.webhooks, metrics: WebhookMetrics(registry: metrics.registry), logger: logger)
    }
}
