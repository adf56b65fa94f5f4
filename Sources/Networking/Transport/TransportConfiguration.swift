public import Foundation

/// The limits a network transport applies to every exchange: `CurlTransport` and
/// `URLSessionTransport` take the same configuration and honour it the same way.
public struct TransportConfiguration: Sendable, Hashable {
    /// Seconds a whole exchange may take, unless the request sets its own `timeout`.
    public var timeout: TimeInterval
    /// The largest body accepted, in bytes (after decompression); a larger one is refused while
    /// it arrives.
    public var maxBodySize: Int
    /// The `User-Agent` sent with every request that does not set its own.
    public var userAgent: String

    /// Creates a configuration; the defaults are 30 s, 10 MB and `Tidings/1.0`.
    public init(timeout: TimeInterval = 30, maxBodySize: Int = 10_000_000, userAgent: String = "Tidings/1.0") {
        self.timeout = timeout
        self.maxBodySize = maxBodySize
        self.userAgent = userAgent
    }
}
