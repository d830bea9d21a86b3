/// A replica's name in sync stamps: a device's id (a UUID it makes on its first sync) or a
/// server's (`server:` and one).
public enum SyncDevice {
    /// What a device id may be, as a refusal says it.
    public static let rule = "1 to 64 of A-Z a-z 0-9 . _ - :"

    /// 1 to 64 of `A-Z a-z 0-9 . _ - :`.
    public static func isValid(_ device: String) -> Bool {
        (1...64).contains(device.utf8.count) && device.utf8.allSatisfy {
            (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || [0x2E, 0x5F, 0x2D, 0x3A].contains($0)
        }
    }
}
