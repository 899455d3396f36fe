/// A key as the booth understands it, whatever keypad or keyboard sent it.
public enum KeypadKey: Sendable, Hashable {
    /// A printable character to add to the name being typed.
    case character(Character)
    /// A phone keypad's key pressed again: the letter its last press typed becomes this one
    /// ("2" then "2" again is b).
    case retype(Character)
    /// Erase the last character.
    case backspace
    /// Confirm.
    case enter
    /// Leave without changing anything.
    case cancel
    /// The view key on the main screen: look at the photos taken so far.
    case view
    /// Move up or down a list (arrow keys; 2 and 8 on a phone keypad outside name entry).
    case up
    case down
}

/// The keypad (or keyboard) a guest uses to name a photo.
public protocol Keypad: Sendable {
    /// The keys in the order they were pressed. A single consumer reads it. The stream ends only
    /// when input has ended for good (a script piped into the simulated booth); the booth then
    /// finishes what it is doing and stops.
    var keys: AsyncStream<KeypadKey> { get }
}
