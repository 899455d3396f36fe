import BoothCore
import CCUPS
import Foundation

extension IPPServer {
    /// The CUPS server libcups's own settings name: `CUPS_SERVER`, then `client.conf`, then the
    /// local scheduler.
    package static var cupsDefault: IPPServer {
        IPPServer(host: String(cString: cupsServer()), port: Int(ippPort()))
    }
}

/// Why an IPP request did not get its answer.
package enum PrintError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server could not be reached, or stopped answering: nothing is known of the request.
    case unreachable(String)
    /// The server answered and refused, with IPP's status and its message.
    case refused(status: Int, message: String)
    /// The document to print could not be made.
    case document(String)
    /// The printer or its queue has a fault that holds prints: what it says, and the fix.
    case fault(String, fix: String)

    package var description: String {
        switch self {
        case .unreachable(let message): message
        case .refused(let status, let message): "\(message) (IPP status 0x\(String(status, radix: 16, uppercase: false)))"
        case .document(let message): message
        case .fault(let message, _): message
        }
    }

    /// IPP's `client-error-not-found`: no such job or printer.
    var isNotFound: Bool {
        if case .refused(let status, _) = self { return status == Int(IPP_STATUS_ERROR_NOT_FOUND.rawValue) }
        return false
    }
}

/// One HTTP connection to an IPP server, kept open between requests and opened again after a
/// failure. Every call blocks (a request waits up to ``timeout`` for its answer): it is used
/// only on the print thread, never on Swift's cooperative pool.
final class CUPSConnection {
    let server: IPPServer
    /// The longest wait for a connection or an answer: a server that hangs must not hold the
    /// print thread, and with it the printer's state, for longer.
    static let timeout = 10.0
    private var http: OpaquePointer?

    init(server: IPPServer) {
        self.server = server
    }

    deinit {
        close()
    }

    func close() {
        if let http { httpClose(http) }
        http = nil
    }

    private func connected() throws(PrintError) -> OpaquePointer {
        if let http { return http }
        guard
            let opened = httpConnect2(
                server.host, Int32(server.port), nil, AF_UNSPEC, HTTP_ENCRYPTION_IF_REQUESTED, 1, Int32(Self.timeout * 1000), nil)
        else {
            throw .unreachable("The print server \(server) cannot be reached: \(String(cString: cupsLastErrorString())).")
        }
        httpSetTimeout(opened, Self.timeout, nil, nil)
        http = opened
        return opened
    }

    /// Sends `request` to `resource` (`/printers/NAME`, `/jobs`, `/`), with `document` after
    /// it when there is one, and returns the answer when its status is a success.
    func perform(_ request: IPPMessage, resource: String, document: Data? = nil) throws(PrintError) -> IPPMessage {
        let http = try connected()
        let answer: IPPMessage?
        if let document {
            answer = send(request, resource: resource, document: document, over: http)
        } else {
            answer = IPPMessage(taking: cupsDoRequest(http, request.handedOver(), resource))
        }
        let status = answer?.status ?? cupsLastError()
        guard let answer, status.rawValue < IPP_STATUS_REDIRECTION_OTHER_SITE.rawValue else {
            let message = String(cString: cupsLastErrorString())
            if answer == nil, status.rawValue >= IPP_STATUS_ERROR_INTERNAL.rawValue || status == IPP_STATUS_ERROR_SERVICE_UNAVAILABLE {
                close()
                throw .unreachable("The print server \(server) did not answer: \(message).")
            }
            throw .refused(status: Int(status.rawValue), message: message)
        }
        return answer
    }

    /// A request with a document: libcups sends the request, then the document from a
    /// descriptor (an anonymous file in memory, `memfd_create`), as `lp` sends a file.
    private func send(_ request: IPPMessage, resource: String, document: Data, over http: OpaquePointer) -> IPPMessage? {
        let descriptor = ccups_document_file()
        guard descriptor >= 0 else {
            return nil
        }
        defer { Glibc.close(descriptor) }
        let written = document.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return lseek(descriptor, 0, SEEK_SET) == 0
        }
        guard written else { return nil }
        return IPPMessage(taking: cupsDoIORequest(http, request.handedOver(), resource, descriptor, -1))
    }
}
