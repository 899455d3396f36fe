import Glibc
import NIOCore
import NIOHTTP1

/// Answers, on the event loop, the requests whose answer is kept (``ResponseCache/served``), and
/// passes every other request on to the router: a kept page, API answer or thumbnail is written
/// from memory, and an original's tagged start from memory and the rest of its file by the
/// kernel (`sendfile`), without a task, the router or a copy of the file in the process. It is
/// what lets the gallery serve like a static server (issue 16).
///
/// Answers keep the order of the requests: while a request passed on is unanswered, the next
/// ones are passed on too (HTTP/1.1 pipelining). Only a plain GET or HEAD of HTTP/1.1 that keeps
/// its connection, without `Range`, is answered here; If-None-Match gets its 304.
///
/// A client that does not read gets at most ``mostWriting`` answers queued here, one of them
/// at most with an original's file open (the web's descriptors stay within
/// ``ConnectionLimits/descriptorsPerConnection`` per connection); the requests after them go to
/// the router, whose reading waits for the client.
/// An original whose file is not all in the page cache goes to the router too, which reads it
/// on the web's blocking threads: `sendfile` would read the disk on the event loop, and every
/// connection would wait for an SD card.
///
/// What every answer follows (its `Date`, its security headers, the idle timeout, graceful
/// shutdown) is ``ConnectionRules``', in front of it; the 304 is decided as the router's
/// (``ConditionalGet``). Its own rule is the end of the client's input: held back until what
/// it writes is written, since the router's side then closes its half of the connection, and an
/// original half sent would be cut.
final class KeptAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let kept: ResponseCache
    private let metrics: WebMetrics

    /// How many answers of its own a connection may have waiting to be written.
    static let mostWriting = 4

    /// Requests passed on whose answer has not ended yet.
    private var passedOn = 0
    /// The rest of a request answered here (a body a GET should not have) is dropped.
    private var dropping = false
    /// Answers of this handler not written out yet.
    private var writing = 0
    /// Whether one of them is sent from an original's file, open meanwhile.
    private var sendingFile = false
    /// The end of the client's input came while ``writing``: passed on once it is zero.
    private var inputClosed = false

    init(kept: ResponseCache, metrics: WebMetrics) {
        self.kept = kept
        self.metrics = metrics
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if passedOn == 0, writing < Self.mostWriting, context.channel.isWritable, let answer = answer(to: head) {
                write(answer, for: head, context: context)
                dropping = true
            } else {
                passedOn += 1
                context.fireChannelRead(data)
            }
        case .body:
            if !dropping { context.fireChannelRead(data) }
        case .end:
            if dropping {
                dropping = false
            } else {
                context.fireChannelRead(data)
            }
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { passedOn = max(0, passedOn - 1) }
        context.write(data, promise: promise)
    }

    /// The kept answer to `head` and, for an original, its file opened; `nil` when the router
    /// is to answer.
    private func answer(to head: HTTPRequestHead) -> (ServedAnswer, NIOFileHandle?)? {
        guard head.method == .GET || head.method == .HEAD, head.version == .http1_1, head.isKeepAlive,
            !head.headers.contains(name: "range")
        else { return nil }
        guard let answer = kept.served.value(for: RequestKey.of(head), generation: kept.generation.current) else { return nil }
        guard let file = answer.file, head.method == .GET, !EntityTag.matches(head.headers["if-none-match"], answer.etag) else {
            return (answer, nil)
        }
        guard !sendingFile else { return nil }
        // Opening a file the page cache knows is a few microseconds, as for any static server;
        // a file gone, of another size or not all in memory is left to the router.
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int(status.st_size) == file.size, Self.isCached(descriptor, size: file.size) else {
            Glibc.close(descriptor)
            return nil
        }
        return (answer, NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: descriptor))
    }

    /// Whether every page of the first `size` bytes of the file is in the page cache, so that
    /// sending it reads no disk (`mincore` on a mapping that is never touched).
    static func isCached(_ descriptor: Int32, size: Int) -> Bool {
        guard size > 0 else { return true }
        guard let mapping = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0), mapping != MAP_FAILED else { return false }
        defer { munmap(mapping, size) }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        var pages = [UInt8](repeating: 0, count: (size + pageSize - 1) / pageSize)
        guard mincore(mapping, size, &pages) == 0 else { return false }
        return pages.allSatisfy { $0 & 1 == 1 }
    }

    private func write(_ found: (ServedAnswer, NIOFileHandle?), for request: HTTPRequestHead, context: ChannelHandlerContext) {
        let (answer, file) = found
        let unchanged = EntityTag.matches(request.headers["if-none-match"], answer.etag)
        context.write(wrapOutboundOut(.head(unchanged ? answer.notModified : answer.head)), promise: nil)
        if !unchanged && request.method == .GET {
            if answer.body.readableBytes > 0 { context.write(wrapOutboundOut(.body(.byteBuffer(answer.body))), promise: nil) }
            if let file, let part = answer.file {
                // In the router's chunks, each flushed by itself but the last (the end's flush
                // takes it): each one the client takes is progress against the stall limit.
                for start in stride(from: part.offset, to: part.size, by: OriginalParts.chunkSize) {
                    let end = min(start + OriginalParts.chunkSize, part.size)
                    let region = wrapOutboundOut(.body(.fileRegion(FileRegion(fileHandle: file, readerIndex: start, endIndex: end))))
                    if end < part.size {
                        context.writeAndFlush(region, promise: nil)
                    } else {
                        context.write(region, promise: nil)
                    }
                }
            }
        }
        metrics.countKeptAnswer()
        writing += 1
        if file != nil { sendingFile = true }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in
            if let file {
                try? file.close()
                self.sendingFile = false
            }
            self.writing -= 1
            if self.writing == 0 && self.inputClosed {
                self.inputClosed = false
                context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
            }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard writing > 0, (event as? ChannelEvent) == .inputClosed else { return context.fireUserInboundEventTriggered(event) }
        inputClosed = true
    }
}
