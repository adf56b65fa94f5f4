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
