public import Foundation
public import Networking

/// A client of the Fever API (feedafever.com/api), the protocol most self-hosted feed servers
/// speak (FreshRSS, Miniflux, Tiny Tiny RSS through its plugin, yarr, Coldsweat): one POST per
/// call to `endpoint?api&COMMAND`, the API key in a form body.
///
/// The key stands for the password, so the client refuses an endpoint that would carry it
/// readable: https, or plain http only to this machine. Every answer is checked before it is
/// believed (`FeverResponse`): an HTML page, a cut-off document, `auth: 0` or a missing field
/// each end the call with its own `FeverError`.
public struct FeverClient: Sendable {
    /// The most items one `items` call returns (the protocol's page).
    public static let pageSize = 50

    /// The API's address, as the user gave it (`https://rss.example.com/api/fever.php`).
    public let endpoint: URL
    private let apiKey: String
    private let transport: any HTTPTransport
    /// How long one request may wait for its answer.
    private let timeout: TimeInterval

    /// A client of `endpoint` for `credentials`, sending through `transport`; a request whose
    /// answer takes longer than `timeout` seconds fails with `.network(.timedOut)`.
    /// - Throws: `FeverError.insecureEndpoint` for plain http to another machine, or a scheme
    ///   other than http and https.
    public init(
        endpoint: URL, credentials: FeverCredentials, transport: any HTTPTransport, timeout: TimeInterval = 60
    ) throws(FeverError) {
        guard Self.mayCarryKey(endpoint) else { throw .insecureEndpoint(endpoint) }
        self.endpoint = endpoint
        apiKey = credentials.apiKey
        self.transport = transport
        self.timeout = timeout
    }

    /// Whether an API key may be sent to `url`: over https, or over http only to this machine
    /// (`localhost`, 127.0.0.0/8, `::1`), where no network sees it.
    public static func mayCarryKey(_ url: URL) -> Bool { Netrc.mayCarrySecret(to: url) }

    // MARK: Calls

    /// Checks that the endpoint is a Fever API that accepts the credentials; returns the
    /// server's API version.
    @discardableResult
    public func verify() async throws(FeverError) -> Int {
        try await call([]).integer("api_version") ?? 0
    }

    /// The account's groups and which feeds each holds.
    public func groups() async throws(FeverError) -> (groups: [FeverGroup], feedGroups: FeverFeedGroups) {
        let response = try await call([("groups", nil)])
        var groups: [FeverGroup] = []
        for (index, object) in try (response.array("groups") ?? []).enumerated() {
            groups.append(
                FeverGroup(
                    id: try FeverResponse.id(object, "id", path: "groups[\(index)]"),
                    title: FeverResponse.text(object, "title")))
        }
        return (groups, try feedGroups(response))
    }

    /// The feeds the server fetches for the account, and which groups they are in.
    public func feeds() async throws(FeverError) -> (feeds: [FeverFeed], feedGroups: FeverFeedGroups) {
        let response = try await call([("feeds", nil)])
        var feeds: [FeverFeed] = []
        for (index, object) in try (response.array("feeds") ?? []).enumerated() {
            feeds.append(
                FeverFeed(
                    id: try FeverResponse.id(object, "id", path: "feeds[\(index)]"),
                    title: FeverResponse.text(object, "title"),
                    url: FeverResponse.webURL(object, "url"),
                    siteURL: FeverResponse.webURL(object, "site_url"),
                    lastUpdated: FeverResponse.time(object, "last_updated_on_time")))
        }
        return (feeds, try feedGroups(response))
    }

    /// Up to `pageSize` items whose id is greater than `id`, oldest first as servers send
    /// them (`since_id`); 0 starts at the first.
    public func items(after id: Int64) async throws(FeverError) -> FeverItemPage {
        try await items([("items", nil), ("since_id", String(id))])
    }

    /// Up to `pageSize` items whose id is less than `id`, newest first (`max_id`).
    public func items(before id: Int64) async throws(FeverError) -> FeverItemPage {
        try await items([("items", nil), ("max_id", String(id))])
    }

    /// The items with these ids, asked `pageSize` at a time (`with_ids`); ids the server does
    /// not have are left out of the answer.
    public func items(ids: [Int64]) async throws(FeverError) -> [FeverItem] {
        var found: [FeverItem] = []
        var start = ids.startIndex
        while start < ids.endIndex {
            let end = min(start + Self.pageSize, ids.endIndex)
            let list = ids[start..<end].map(String.init).joined(separator: ",")
            found += try await items([("items", nil), ("with_ids", list)]).items
            start = end
        }
        return found
    }

    /// The ids of every unread item.
    public func unreadItemIDs() async throws(FeverError) -> Set<Int64> {
        let response = try await call([("unread_item_ids", nil)])
        guard let ids = try response.idList("unread_item_ids") else {
            throw .malformed("unread_item_ids is missing")
        }
        return Set(ids)
    }

    /// The ids of every saved (starred) item.
    public func savedItemIDs() async throws(FeverError) -> Set<Int64> {
        let response = try await call([("saved_item_ids", nil)])
        guard let ids = try response.idList("saved_item_ids") else { throw .malformed("saved_item_ids is missing") }
        return Set(ids)
    }

    /// What `mark(item:_:)` sets.
    public enum ItemMark: String, Sendable, CaseIterable {
        case read, unread, saved, unsaved
    }

    /// Marks one item read, unread, saved or unsaved.
    public func mark(item id: Int64, _ mark: ItemMark) async throws(FeverError) {
        _ = try await call([], form: [("mark", "item"), ("as", mark.rawValue), ("id", String(id))])
    }

    /// Marks the items of a feed read that the server had by `before` (items it fetches later
    /// stay unread).
    public func markFeedRead(_ id: Int64, before: Date) async throws(FeverError) {
        _ = try await call([], form: [("mark", "feed"), ("as", "read"), ("id", String(id)), ("before", Self.seconds(before))])
    }

    /// Marks the items of a group read that the server had by `before`.
    public func markGroupRead(_ id: Int64, before: Date) async throws(FeverError) {
        _ = try await call(
            [], form: [("mark", "group"), ("as", "read"), ("id", String(id)), ("before", Self.seconds(before))])
    }

    // MARK: Requests

    private func items(_ query: [(String, String?)]) async throws(FeverError) -> FeverItemPage {
        let response = try await call(query)
        guard let objects = try response.array("items") else { throw .malformed("items is missing") }
        var items: [FeverItem] = []
        items.reserveCapacity(objects.count)
        for (index, object) in objects.enumerated() {
            let path = "items[\(index)]"
            items.append(
                FeverItem(
                    id: try FeverResponse.id(object, "id", path: path),
                    feedID: try FeverResponse.id(object, "feed_id", path: path),
                    title: FeverResponse.text(object, "title"),
                    author: FeverResponse.text(object, "author"),
                    html: FeverResponse.text(object, "html"),
                    url: FeverResponse.webURL(object, "url"),
                    isRead: FeverResponse.flag(object, "is_read"),
                    isSaved: FeverResponse.flag(object, "is_saved"),
                    created: FeverResponse.time(object, "created_on_time")))
        }
        return FeverItemPage(items: items, total: response.integer("total_items"))
    }

    private func feedGroups(_ response: FeverResponse) throws(FeverError) -> FeverFeedGroups {
        var groups = FeverFeedGroups()
        for (index, object) in try (response.array("feeds_groups") ?? []).enumerated() {
            let path = "feeds_groups[\(index)]"
            let group = try FeverResponse.id(object, "group_id", path: path)
            let feeds = try object["feed_ids"].map { value throws(FeverError) in
                try FeverResponse.ids(value, path: "\(path).feed_ids")
            } ?? []
            groups.feedsByGroup[group, default: []] += feeds
        }
        return groups
    }

    /// POSTs `endpoint?api&…query` with the key and `form` in the body, and reads the answer.
    /// Reads name their command in the query; writes (`mark`) send theirs in the body, as the
    /// protocol's own client did and as every server reads them (Coldsweat reads them nowhere
    /// else).
    private func call(_ query: [(String, String?)], form: [(String, String)] = []) async throws(FeverError)
        -> FeverResponse
    {
        let response: HTTPResponse
        do {
            response = try await transport.send(request(query, form: form))
        } catch {
            throw .network(error)
        }
        guard response.isSuccess else {
            if response.status == 401 || response.status == 403 { throw .unauthorized }
            throw .network(.status(response))
        }
        return try FeverResponse(body: response.body)
    }

    func request(_ query: [(String, String?)], form: [(String, String)] = []) -> HTTPRequest {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false) ?? URLComponents()
        var items = components.queryItems ?? []
        items.append(URLQueryItem(name: "api", value: nil))
        items += query.map { URLQueryItem(name: $0.0, value: $0.1) }
        components.queryItems = items
        return HTTPRequest(
            method: .post, url: components.url ?? endpoint,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: Data(([("api_key", apiKey)] + form).map { "\($0.0)=\(Self.formEncoded($0.1))" }.joined(separator: "&").utf8),
            timeout: timeout)
    }

    /// `text` as an `application/x-www-form-urlencoded` value.
    private static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    private static func seconds(_ date: Date) -> String { String(Int64(date.timeIntervalSince1970.rounded(.down))) }
}
