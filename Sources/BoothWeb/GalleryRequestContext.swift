import Hummingbird
import NIOCore

/// The context of each request to the gallery: Hummingbird's, plus the connection, so that a
/// live stream can drop a client that stopped reading (see ``ClientFeed``).
struct GalleryRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's connection.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}
