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

    /// The IPv4 addresses an IPv6 address carries inside it, each form by its RFC: mapped and
    /// compatible `::ffff:a.b.c.d` and `::a.b.c.d` (RFC 4291 §2.5.5), NAT64's well-known prefix
    /// `64:ff9b::/96` (RFC 6052), 6to4 `2002::/16` (RFC 3056, the 32 bits after the prefix) and
    /// Teredo `2001::/32` (RFC 4380: the server's address, and the client's with every bit
    /// inverted). Empty for an address that embeds none.
    var embedded: [[UInt8]] {
        guard bytes.count == 16 else { return [] }
        let b = bytes
        if b[0..<10].allSatisfy({ $0 == 0 }), (b[10] == 0xFF && b[11] == 0xFF) || (b[10] == 0 && b[11] == 0) { return [Array(b[12...])] }
        if b[0..<12].elementsEqual([0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0]) { return [Array(b[12...])] }
        if b[0] == 0x20, b[1] == 0x02 { return [Array(b[2..<6])] }
        if b[0..<4].elementsEqual([0x20, 0x01, 0x00, 0x00]) { return [Array(b[4..<8]), b[12...].map { $0 ^ 0xFF }] }
        return []
    }

    /// Whether the address is on the public internet: not loopback, private (RFC 1918, RFC 4193),
    /// shared (RFC 6598), link-local, unspecified, multicast, documentation or another range of
    /// IANA's special-purpose registries (RFC 6890) that is not globally reachable. An IPv6 address
    /// that embeds IPv4 ones is judged by them (`embedded`): `::ffff:127.0.0.1`,
    /// `64:ff9b::7f00:1` and `2002:7f00:1::` are loopback.
    public var isPublic: Bool {
        let embedded = self.embedded
        if !embedded.isEmpty {
            // `::` and `::1` are IPv6's own unspecified and loopback addresses.
            if bytes.count == 16, bytes[0..<15].allSatisfy({ $0 == 0 }), bytes[15] <= 1 { return false }
            return embedded.allSatisfy(Self.isPublicIPv4)
        }
        if bytes.count == 4 { return Self.isPublicIPv4(bytes) }
        let b = bytes
        if b[0] & 0xFE == 0xFC { return false }                 // fc00::/7 unique local
        if b[0] == 0xFE, b[1] & 0xC0 == 0x80 { return false }   // fe80::/10 link-local
        if b[0] == 0xFE, b[1] & 0xC0 == 0xC0 { return false }   // fec0::/10 site-local, deprecated
        if b[0] == 0xFF { return false }                        // multicast
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0D, b[3] == 0xB8 { return false } // 2001:db8::/32 documentation
        if b[0] == 0x3F, b[1] == 0xFF, b[2] & 0xF0 == 0 { return false }           // 3fff::/20 documentation
        if b[0] == 0x20, b[1] == 0x01, b[2] < 0x02 { return false }                // 2001::/23 IETF protocol assignments
        if b[0] == 0x00, b[1] == 0x64, b[2] == 0xFF, b[3] == 0x9B { return false } // 64:ff9b:1::/48 local-use NAT64, and the rest
        if b[0] == 0x01, b[1] == 0x00, b[2..<8].allSatisfy({ $0 == 0 }) { return false } // 100::/64 discard-only
        if b[0] == 0x5F, b[1] == 0x00 { return false }                              // 5f00::/16 segment routing
        if b[0..<12].allSatisfy({ $0 == 0 }) { return false }   // the rest of ::/96
        return true
    }

    /// Whether an IPv4 address is globally reachable (IANA's IPv4 special-purpose registry).
    static func isPublicIPv4(_ b: [UInt8]) -> Bool {
        switch (b[0], b[1]) {
        case (0, _), (10, _), (127, _), (169, 254), (192, 168), (198, 18), (198, 19): return false
        case (172, 16...31), (100, 64...127): return false
        case (192, 0) where b[2] == 0 || b[2] == 2: return false
        case (192, 88) where b[2] == 99: return false             // 6to4 relay anycast, deprecated
        case (198, 51) where b[2] == 100, (203, 0) where b[2] == 113: return false
        case (224...255, _): return false
        default: return true
        }
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
