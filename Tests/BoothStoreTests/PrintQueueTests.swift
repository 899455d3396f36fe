import BoothCore
import BoothImaging
import Foundation
import Synchronization
import Testing

@testable import BoothStore

@Suite("The print queue in the catalog")
struct PrintQueueTests {
    @Test("A picture saved with printCopies has its print request in the same commit; one saved without has none")
    func autoPrintInTheSaveTransaction() throws {
        let fixture = try LibraryFixture()
        let library = fixture.library
        let jpeg = try LibraryFixture.jpeg()
        let (photo, _) = try library.add(
            jpeg, thumbnail: try JPEGThumbnailer().thumbnail(of: jpeg), id: UUID(), number: library.reservePhotoNumber(),
            caption: .placeholder(number: 1), createdAt: Date(), printCopies: 2)
        let pending = try library.prints.requests(in: [.pending])
        #expect(pending.map(\.photo) == [photo.id])
        #expect(pending.first?.copies == 2 && pending.first?.reason == .auto)
        // Opened again, as after a power cut: the request is there.
        let reopened = try LibraryFixture.open(fixture.directory)
        #expect(try reopened.prints.requests(in: [.pending]).map(\.id) == pending.map(\.id))
        // A photo saved without printing has no request.
        try fixture.add()
        #expect(try library.prints.requests(in: PrintRequest.State.allCases).count == 1)
    }

    @Test("A request goes pending, sending, printing, done; a lost one goes back in its turn; counts and pages add up")
    func lifecycle() throws {
        let fixture = try LibraryFixture()
        let prints = fixture.library.prints
        let first = try prints.request(try fixture.add().id, copies: 1, reason: .admin)
        let second = try prints.request(try fixture.add().id, copies: 3, reason: .booth)
        #expect(try prints.requests(in: [.pending]).map(\.number) == [first.number, second.number], "oldest first")
        try prints.sending(first)
        #expect(try prints.request(number: first.number)?.state == .sending)
        try prints.printing(first, job: 41)
        #expect(try prints.request(number: first.number)?.cupsJob == 41)
        try prints.finished(first, as: .done, pages: 1, detail: nil)
        try prints.sending(second)
        try prints.sendAgain(second, detail: "CUPS never got it; sent again")
        let again = try #require(try prints.request(number: second.number))
        #expect(again.state == .pending && again.cupsJob == nil && again.detail == "CUPS never got it; sent again")
        let counts = try prints.counts()
        #expect(counts[.done] == 1 && counts[.pending] == 1 && counts[.failed] == 0)
        #expect(try prints.pagesPrinted() == 1)
        let counted = try prints.allowance(of: second.photo, under: PrintLimits())
        #expect(counted.ofPicture == 3 && counted.inAll == 4 && counted.left == nil)
    }

    @Test("Cancel: a pending request is canceled at once, one CUPS has is marked for the print thread; retry queues a new one")
    func cancelAndRetry() throws {
        let fixture = try LibraryFixture()
        let prints = fixture.library.prints
        let woken = Counter()
        prints.whenQueued { woken.add() }
        let waiting = try prints.request(try fixture.add().id, copies: 1, reason: .admin)
        let sent = try prints.request(try fixture.add().id, copies: 1, reason: .admin)
        #expect(woken.value == 2)
        try prints.printing(sent, job: 7)
        #expect(try prints.cancel(waiting.number)?.state == .canceled)
        let marked = try #require(try prints.cancel(sent.number))
        #expect(marked.state == .printing && marked.cancelAsked)
        #expect(try prints.cancel(999) == nil)
        #expect(woken.value == 4, "a cancel wakes the print thread")
        #expect(try prints.retry(sent.number) == nil, "only a failed or canceled request is retried")
        let retried = try #require(try prints.retry(waiting.number))
        #expect(retried.number > sent.number && retried.photo == waiting.photo && retried.state == .pending)
        #expect(try prints.allowance(of: waiting.photo, under: PrintLimits()).ofPicture == 1, "the canceled request is not counted")
    }

    @Test("Guests' prints stop at the picture's limit and the event's: fewer copies for the last, none after; a failed one gives its back")
    func guestLimits() throws {
        let fixture = try LibraryFixture()
        let prints = fixture.library.prints
        let limits = PrintLimits(perPicture: 3, total: 5)
        let photo = try fixture.add().id
        let (first, before) = try prints.guestRequest(photo, copies: 2, under: limits)
        #expect(first?.copies == 2 && first?.reason == .guest && before.left == 3)
        let (second, _) = try prints.guestRequest(photo, copies: 2, under: limits)
        #expect(second?.copies == 1, "one print of the picture's three was left")
        let (third, spent) = try prints.guestRequest(photo, copies: 2, under: limits)
        #expect(third == nil && spent.left == 0 && !spent.eventIsSpent)
        // The operator's prints are not limited, and count: the event's limit is reached.
        let other = try fixture.add().id
        _ = try prints.request(other, copies: 2, reason: .admin)
        let (refused, event) = try prints.guestRequest(other, copies: 1, under: limits)
        #expect(refused == nil && event.eventIsSpent && event.inAll == 5)
        // A print that failed does not count.
        try prints.finished(try #require(first), as: .failed, pages: 0, detail: "jammed")
        #expect(try prints.allowance(of: photo, under: limits).left == 2)
        #expect(try prints.allowance(of: photo, under: PrintLimits()).left == nil, "no limit")
        #expect(throws: LibraryError.self) { try prints.guestRequest(UUID(), copies: 1, under: limits) }
    }

    @Test("A print of a photo the catalog does not have is refused")
    func unknownPhoto() throws {
        let fixture = try LibraryFixture()
        #expect {
            try fixture.library.prints.request(UUID(), copies: 1, reason: .admin)
        } throws: { error in
            (error as? LibraryError)?.code == .unknownPhoto
        }
    }
}

/// A count shared with a callback.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
