import NIOCore
import NIOHTTP1

/// The rules of HTTP that every answer of a gallery connection follows, whichever path made it
/// (``KeptAnswerHandler`` on the event loop, or the router): it sits next to the socket, where
/// it sees every request that comes and every answer that goes, and it is the only place each
/// rule is written.
///
/// - Every answer's head gets the `Date` (``HTTPDate``) and the ``SecurityHeaders``, and is
///   counted in ``WebMetrics`` by its status.
/// - The idle timeout: a connection is closed when it has been quiet for ``Timing/idleTimeout``
///   with nothing in progress, or in the middle of a request whose head or body stopped coming.
///   An answer being made keeps it open however long it takes (a live stream between pictures).
/// - The stall limit: a connection whose written answer the client has not taken for
///   ``Timing/stallLimit`` (nothing flushed was written out meanwhile) is closed, so a client
///   that stops reading cannot hold a live stream or a download open forever.
/// - Graceful shutdown: on the server's quiesce the connection is closed at once when nothing
///   is in progress, or as soon as the answers in progress are written out; no answer is cut.
/// - The ``ConnectionTable``'s view of it: busy from a request's head until its answer is
///   written out, idle otherwise.
///
/// Its times are its event loop's, which a test's embedded loop advances.
final class ConnectionRules: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// How long a connection may be quiet, and how long a client may leave an answer untaken.
    struct Timing: Sendable {
        var idleTimeout: TimeAmount
        var stallLimit: TimeAmount
    }

    private let timing: Timing
    private let metrics: WebMetrics
    private let slot: ConnectionSlot?

    /// Requests whose head came and whose answer's end is not written out yet.
    private var inProgress = 0
    /// A request's head came and its end has not.
    private var reading = false
    /// Flushed writes not written out yet, counted by flush: writes go out in order, so the
    /// last write of a flush is followed out, and an answer written at once costs one callback.
    private var writing = 0
    /// The last write, passed on at the next write or flush (or close), and the answers' ends
    /// among the writes since the last flush.
    private var held: (data: NIOAny, promise: EventLoopPromise<Void>?)?
    private var endsHeld = 0
    /// When the client last did something: sent bytes, took a write, or was given one to take
    /// while it had none.
    private var lastActive = NIODeadline.uptimeNanoseconds(0)
    /// The server is shutting down: close once nothing is in progress.
    private var quiescing = false
    private var check: Scheduled<Void>?
    private var checkDeadline = NIODeadline.distantFuture

    init(timing: Timing, metrics: WebMetrics, slot: ConnectionSlot?) {
        self.timing = timing
        self.metrics = metrics
        self.slot = slot
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelCheck()
        if let held {
            self.held = nil
            context.write(held.data, promise: held.promise)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelCheck()
        context.fireChannelInactive()
    }

    private func start(context: ChannelHandlerContext) {
        lastActive = context.eventLoop.now
        scheduleCheck(context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActive = context.eventLoop.now
        switch unwrapInboundIn(data) {
        case .head:
            reading = true
            inProgress += 1
            if inProgress == 1 { slot?.markBusy() }
        case .body:
            break
        case .end:
            reading = false
        }
        scheduleCheck(context: context)
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var data = data
        switch unwrapOutboundIn(data) {
        case .head(var head):
            head.headers.add(name: "Date", value: HTTPDate.now)
            SecurityHeaders.add(to: &head.headers)
            metrics.countAnswer(head.status.code)
            data = wrapOutboundOut(.head(head))
        case .body:
            break
        case .end:
            endsHeld += 1
        }
        if let held { context.write(held.data, promise: held.promise) }
        held = (data, promise)
    }

    /// Passes the writes on, the last of them with the callback that follows them out.
    func flush(context: ChannelHandlerContext) {
        if let held {
            self.held = nil
            let ends = endsHeld
            endsHeld = 0
            // A client given something to take when it had nothing pending starts taking now.
            if writing == 0 { lastActive = context.eventLoop.now }
            writing += 1
            let written = held.promise ?? context.eventLoop.makePromise()
            written.futureResult.assumeIsolated().whenComplete { _ in
                self.writing -= 1
                self.lastActive = context.eventLoop.now
                if ends > 0 { self.answersWritten(ends, context: context) }
            }
            context.write(held.data, promise: written)
            scheduleCheck(context: context)
        }
        context.flush()
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if let held {
            self.held = nil
            context.write(held.data, promise: held.promise)
        }
        context.close(mode: mode, promise: promise)
    }

    /// `count` answers' ends are out: the connection may be idle now, or closed for a shutdown.
    private func answersWritten(_ count: Int, context: ChannelHandlerContext) {
        inProgress = max(0, inProgress - count)
        guard inProgress == 0 else { return }
        slot?.markIdle(at: .now())
        if quiescing {
            context.close(promise: nil)
        } else {
            scheduleCheck(context: context)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
        // Handled here, where every answer is seen: the handlers further in see only theirs.
        quiescing = true
        if inProgress == 0 { context.close(promise: nil) }
    }

    // The checks: one scheduled at a time, at the earliest moment a rule could close the
    // connection; each change of state only moves it earlier, so a busy connection reschedules
    // nothing per request.

    /// How long the connection may stay as it is now, and `nil` when nothing but the answer
    /// being made can end it.
    private var allowance: TimeAmount? {
        if writing > 0 { return timing.stallLimit }
        if reading || inProgress == 0 { return timing.idleTimeout }
        return nil
    }

    private func scheduleCheck(context: ChannelHandlerContext) {
        guard let allowance else { return }
        let deadline = lastActive + allowance
        guard deadline < checkDeadline else { return }
        check?.cancel()
        checkDeadline = deadline
        check = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            self.check = nil
            self.checkDeadline = .distantFuture
            if let allowance = self.allowance, self.lastActive + allowance <= context.eventLoop.now {
                context.close(promise: nil)
            } else {
                self.scheduleCheck(context: context)
            }
        }
    }

    private func cancelCheck() {
        check?.cancel()
        check = nil
        checkDeadline = .distantFuture
    }
}
