#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address a host resolved to, and what kind of network it is on.
public struct NetworkAddress: Sendable, Equatable {
    /// 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    init?(_ address: UnsafeMutablePointer<sockaddr>?) {
        guard let address else { return nil }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let raw = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            self.init(bytes: withUnsafeBytes(of: raw) { Array($0) })
        case AF_INET6:
            let raw = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            self.init(bytes: withUnsafeBytes(of: raw) { Array($0) })
        default:
            return nil
        }
    }

    /// An IPv4 address mapped into IPv6 (`::ffff:a.b.c.d`) as the IPv4 address it is.
    private var unmapped: [UInt8] {
        if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }

    /// Whether the address is on the public internet: not loopback, private (RFC 1918, RFC 4193),
    /// shared (RFC 6598), link-local, unspecified, multicast, documentation or reserved space
    /// (the special-purpose registries of RFC 6890).
    public var isPublic: Bool {
        let b = unmapped
        if b.count == 4 {
            switch (b[0], b[1]) {
            case (0, _), (10, _), (127, _), (169, 254), (192, 168), (198, 18), (198, 19): return false
            case (172, 16...31), (100, 64...127): return false
            case (192, 0) where b[2] == 0 || b[2] == 2: return false
            case (198, 51) where b[2] == 100, (203, 0) where b[2] == 113: return false
            case (224...255, _): return false
            default: return true
            }
        }
        if b.allSatisfy({ $0 == 0 }) || b == [UInt8](repeating: 0, count: 15) + [1] { return false }
        if b[0] & 0xFE == 0xFC { return false }                 // fc00::/7 unique local
        if b[0] == 0xFE, b[1] & 0xC0 == 0x80 { return false }   // fe80::/10 link-local
        if b[0] == 0xFF { return false }                        // multicast
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0D, b[3] == 0xB8 { return false } // 2001:db8::/32 documentation
        if b[0..<12].allSatisfy({ $0 == 0 }) { return false }   // IPv4-compatible, deprecated
        return true
    }

    /// The address as written (`127.0.0.1`, `::1`).
    public var text: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        _ = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension NetworkAddress {
    /// The addresses `host` resolves to (a literal address is itself); throws
    /// `HTTPClientError.unreachable` when it resolves to none.
    public static func resolve(_ host: String) throws -> [NetworkAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else { throw HTTPClientError.unreachable("cannot resolve \(host): \(String(cString: gai_strerror(status)))") }
        defer { freeaddrinfo(list) }
        var addresses: [NetworkAddress] = []
        var next = list
        while let entry = next {
            if let address = NetworkAddress(entry.pointee.ai_addr), !addresses.contains(address) { addresses.append(address) }
            next = entry.pointee.ai_next
        }
        return addresses
    }
}
