import Testing

@testable import BoothCore

@Suite("Printer states and paper sizes")
struct PrintingValueTests {
    @Test("IPP's reasons, whatever their suffix, are the faults the booth tells, the most serious first")
    func faultsFromReasons() {
        let empty = PrinterStatus(ippState: 3, reasons: ["media-empty-report", "toner-low-warning", "none"], message: "")
        #expect(empty.faults == [.mediaEmpty, .markerLow])
        #expect(empty.state == .stopped && empty.isHoldingPrints, "no paper holds the prints, even on an idle queue")
        let low = PrinterStatus(ippState: 4, reasons: ["media-low-warning", "cups-waiting-for-job-completed"], message: "Printing.")
        #expect(low.faults == [.mediaLow] && low.state == .printing && !low.isHoldingPrints, "a warning does not stop prints")
        let paused = PrinterStatus(ippState: 5, reasons: ["paused"], message: "stopped by the operator")
        #expect(paused.faults == [.paused] && paused.state == .stopped)
        let stopped = PrinterStatus(ippState: 5, reasons: ["marker-supply-low-report"], message: "")
        #expect(stopped.faults == [.stopped, .markerLow], "a stopped queue with no reason it knows is still stopped")
        let jam = PrinterStatus(ippState: 4, reasons: ["media-jam-error", "cover-open-error", "offline-report"], message: "")
        #expect(jam.faults == [.offline, .doorOpen, .mediaJam] && jam.fault == .offline)
        #expect(PrinterStatus(ippState: 3, reasons: [], message: "").faults.isEmpty)
        let rejecting = PrinterStatus(ippState: 3, reasons: ["not-accepting-jobs"], message: "")
        #expect(rejecting.faults == [.notAccepting] && rejecting.isHoldingPrints, "a queue that takes no job holds prints")
    }

    @Test("Paper by common name or PWG name; 2x6 is two strips on a 4x6 sheet; anything else is refused")
    func media() throws {
        let photo = try #require(PrintMedia(named: "4x6"))
        #expect(photo.pwgName == "na_index-4x6_4x6in" && photo.shortSide == 10160 && photo.longSide == 15240)
        #expect(photo.picturesPerSheet == 1)
        let strips = try #require(PrintMedia(named: "2x6"))
        #expect(strips.pwgName == "na_index-4x6_4x6in" && strips.picturesPerSheet == 2)
        let a6 = try #require(PrintMedia(named: "A6"))
        #expect(a6.pwgName == "iso_a6_105x148mm" && a6.shortSide == 10500 && a6.longSide == 14800)
        let custom = try #require(PrintMedia(named: "custom_dnp_6x8in"))
        #expect(custom.shortSide == 15240 && custom.longSide == 20320)
        for bad in ["", "4x", "4x6cm", "na_index_0x6in", "a_b_c_d", "iso a6", "na_x_99999x6in", "9x9"] {
            #expect(PrintMedia(named: bad) == nil, "\(bad)")
        }
    }

    @Test("A print server is HOST, HOST:PORT, [IPv6]:PORT or a socket's path")
    func servers() {
        #expect(IPPServer(parsing: "localhost") == IPPServer(host: "localhost", port: 631))
        #expect(IPPServer(parsing: "127.0.0.1:18631") == IPPServer(host: "127.0.0.1", port: 18631))
        #expect(IPPServer(parsing: "[::1]:631") == IPPServer(host: "::1", port: 631))
        #expect(IPPServer(parsing: "/run/cups/cups.sock")?.host == "/run/cups/cups.sock")
        for bad in ["", "host:0", "host:70000", "host:port", "ipp://host/printers/x", "a b"] {
            #expect(IPPServer(parsing: bad) == nil, "\(bad)")
        }
    }
}
