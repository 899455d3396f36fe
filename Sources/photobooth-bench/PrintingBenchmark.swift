import BoothCore
import BoothImaging
import BoothPrint
import Foundation

/// `--printing`: the page of a print, from a 1920x1080 photo's JPEG to the sheet's JPEG that is
/// sent to CUPS, on 4x6 paper at 300 and 600 dpi (a dye-sublimation printer's resolution and an
/// IPP Everywhere printer's), with its 3 mm margin. The send itself is measured against a real
/// CUPS by the printing harness test (`harness/run -k printing`), which prints the booth's
/// "page made and accepted" figures.
struct PrintingBenchmark {
    let runs: Int

    func run() throws {
        let photo = try JPEGEncoder().encode(Scene.picture(width: 1920, height: 1080, step: 3, format: .rgb), quality: 90)
        let media = PrintMedia(named: "4x6")!
        print("the page of a 1920x1080 photo on 4x6 paper with 3 mm margins; medians of \(runs) runs: elapsed (processor)")
        for dpi in [300, 600] {
            let pages = PageMaker(media: media, margin: 300)
            var page = Data()
            let time = try PicturesBenchmark.median(runs) { page = try pages.page(of: photo, width: 1920, height: 1080, dpi: dpi) }
            print(
                String(
                    format: "%d dpi: %7.1f ms (%7.1f)   %d KiB", dpi, time.elapsed * 1000, time.processor * 1000, page.count / 1024))
        }
    }
}
