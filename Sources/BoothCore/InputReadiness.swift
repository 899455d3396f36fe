/// What the booth waits for from a guest: keys, a press of the button, both, or nothing while it
/// is busy (see ``BoothMachine/awaitedInput``).
package struct AwaitedInput: OptionSet, Sendable, Hashable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// A key of the keypad (or keyboard).
    public static let keys = AwaitedInput(rawValue: 1)
    /// A press of the shutter button.
    package static let press = AwaitedInput(rawValue: 2)
}

/// What the booth waits for now, and how much input it has handled: what paces input that
/// comes faster than a guest (a script piped into the simulated booth's terminal), which waits
/// until the booth has handled what came before and waits for more. The runtime tells it after
/// every event the machine handled.
package struct InputReadiness: Sendable, Hashable {
    /// What the booth waits for (``BoothMachine/awaitedInput``).
    package var awaited: AwaitedInput
    /// Whether the booth is between cycles, where input may end (``BoothMachine/isAtRest``).
    package var atRest: Bool
    /// How many keys the machine has handled since the booth started.
    package var keysHandled: Int
    /// How many presses of the button the machine has handled since the booth started.
    package var pressesHandled: Int

    package init(awaited: AwaitedInput, atRest: Bool, keysHandled: Int, pressesHandled: Int) {
        self.awaited = awaited
        self.atRest = atRest
        self.keysHandled = keysHandled
        self.pressesHandled = pressesHandled
    }
}
