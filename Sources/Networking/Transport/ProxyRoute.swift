public import Foundation

/// Which requests skip the proxies named by the environment (`http_proxy`, `https_proxy`,
/// `ALL_PROXY`; `no_proxy` names more), in every transport alike:
/// - a request to this machine (`localhost`, 127.0.0.0/8, `::1`): a proxy elsewhere cannot
///   reach it, and the loopback is where passwords may travel in clear text;
/// - a plain-http request that carries a credential (`Authorization`, `Proxy-Authorization`,
///   `Cookie`): through a proxy it would be readable by the proxy and every network on its way.
/// Every other request (feeds, pages, https through a tunnel) uses the proxy as curl would.
public enum ProxyRoute {
    /// Whether `request` goes directly to its host, never through a proxy.
    public static func goesDirect(_ request: HTTPRequest) -> Bool {
        if let host = request.url.host, isLoopback(host) { return true }
        guard request.url.scheme?.lowercased() == "http" else { return false }
        return ["Authorization", "Proxy-Authorization", "Cookie"].contains { request.headers[$0] != nil }
    }

    /// Whether `host` names this machine: `localhost`, a dotted IPv4 address in 127.0.0.0/8
    /// written in full (`127.0.0.1`, not `127.1`), or `::1` (bracketed or not).
    public static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        let values = octets.compactMap { $0.count <= 3 && $0.allSatisfy(\.isNumber) ? UInt8($0) : nil }
        return octets.count == 4 && values.count == 4 && values[0] == 127
    }
}
