public import Networking

#if !os(Linux)
    import URLSessionNetworking
#endif

/// The network transport for this platform, for a composition root: `CurlTransport` on Linux
/// (libcurl opened on the first request, so a command that fetches nothing starts without an
/// HTTP stack), `URLSessionTransport` elsewhere (Apple platforms).
///
/// This module links FoundationNetworking only where `URLSessionTransport` is the default, never
/// on Linux.
public func makeDefaultTransport(configuration: TransportConfiguration = TransportConfiguration()) -> any HTTPTransport
{
    #if os(Linux)
        CurlTransport(configuration: configuration)
    #else
        URLSessionTransport(configuration: configuration)
    #endif
}

/// The platform's transport for downloads that stream to a file (`HTTPStreaming`, for
/// `FileDownloader`): `CurlTransport` on Linux. `nil` on Apple platforms, where
/// `URLSessionTransport` does not stream bodies yet.
public func makeDefaultStreamingTransport(configuration: TransportConfiguration = TransportConfiguration())
    -> (any HTTPStreaming)?
{
    #if os(Linux)
        CurlTransport(configuration: configuration)
    #else
        nil
    #endif
}

/// Waits until no request of this process is inside the network stack, or `timeout` has
/// passed; returns whether none is. A process calls it before it exits: on Linux, exiting while
/// a cancelled request is still winding down in libcurl runs OpenSSL's exit-time cleanup under
/// that request's thread (a crash).
public func waitForNetworkIdle(timeout: Duration) async -> Bool {
    #if os(Linux)
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while CurlTransport.activeRequests > 0 {
            guard clock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    #else
        return true
    #endif
}
