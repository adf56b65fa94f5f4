public import Foundation

/// The limits a network transport applies to every exchange: `CurlTransport` and
/// `URLSessionTransport` take the same configuration and honour it the same way.
public struct TransportConfiguration: Sendable, Hashable {
    /// Seconds a whole exchange may take, unless the request sets its own `timeout`. The time a
    /// request waits for a connection to its host (see `maxConnectionsPerHost`) does not count.
    public var timeout: TimeInterval
    /// The largest body accepted, in bytes (after decompression); a larger one is refused while
    /// it arrives.
    public var maxBodySize: Int
    /// The `User-Agent` sent with every request that does not set its own.
    public var userAgent: String
    /// The most exchanges with one host (scheme, host and port) at a time, hence the most
    /// connections the transport opens to it; further requests to that host wait for one of
    /// them to finish, and reuse its connection. At least 1 (a smaller number counts as 1).
    public var maxConnectionsPerHost: Int

    /// Creates a configuration; the defaults are 30 s, 10 MB, `Tidings/1.0` and 2 connections
    /// per host.
    public init(
        timeout: TimeInterval = 30, maxBodySize: Int = 10_000_000, userAgent: String = "Tidings/1.0",
        maxConnectionsPerHost: Int = 2
    ) {
        self.timeout = timeout
        self.maxBodySize = maxBodySize
        self.userAgent = userAgent
        self.maxConnectionsPerHost = maxConnectionsPerHost
    }
}
