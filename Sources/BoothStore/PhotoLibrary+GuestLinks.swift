import BoothCore
import Foundation
import SystemPackage

/// The secret that signs the links letting a guest delete the photo they just took.
extension PhotoLibrary {
    /// The file that holds the secret of the guests' deletion links, in the library folder.
    package static let guestLinkSecretName = "guest-links.key"

    /// The secret that signs the links a guest gets to delete the photo they just took: 32
    /// random bytes in `guest-links.key` in the library folder, made at first use, readable by
    /// the booth's user only (0600), so that links stay valid across restarts. Removing the
    /// file makes every link given so far useless.
    package func guestLinkSecret() throws(LibraryError) -> Data {
        let url = directory.appendingPathComponent(Self.guestLinkSecretName)
        if FileManager.default.fileExists(atPath: url.path) {
            let secret = try DurableFile.read(url)
            guard secret.count == Self.guestLinkSecretSize else {
                throw LibraryError.badGuestLinkSecret(url.path, size: secret.count, expected: Self.guestLinkSecretSize)
            }
            return secret
        }
        var generator = SystemRandomNumberGenerator()
        let secret = Data((0..<Self.guestLinkSecretSize).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        try DurableFile.write(secret, toNew: url, permissions: .ownerReadWrite)
        try DurableFile.syncFolder(directory)
        return secret
    }

    static let guestLinkSecretSize = 32
}
