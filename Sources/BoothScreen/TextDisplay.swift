import BoothCore
import Synchronization

/// A ``TextScreen`` on a device that carries bytes: the terminal of a simulated booth, a
/// keypad's display. The screen decides what the text says; the device only writes it.
package final class TextDisplay: Screen {
    private let screen: Mutex<TextScreen>
    private let output: any ByteSink
    package let audience: ScreenAudience

    package init(_ screen: TextScreen, on output: any ByteSink) {
        self.screen = Mutex(screen)
        self.output = output
        audience = screen.audience
    }

    package func show(_ content: ScreenContent) {
        screen.withLock { screen in
            let text = screen.text(for: content)
            // Written under the lock, so that the device gets the screens in the order shown.
            if !text.isEmpty { output.write(Array(text.utf8)) }
        }
    }

    package func showPrinterNotice(_ fault: PrinterFault?) {
        screen.withLock { screen in
            let text = screen.text(forNotice: fault)
            if !text.isEmpty { output.write(Array(text.utf8)) }
        }
    }
}
