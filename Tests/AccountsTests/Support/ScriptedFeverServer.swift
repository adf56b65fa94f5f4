import Accounts
import Foundation
import Networking
import NetworkingTestSupport
import Synchronization

/// A Fever server in the test process, answering `InMemoryTransport` requests from its state
/// as the protocol says, with the faults a test turns on: a server that ignores `since_id`,
/// repeats items across pages, hides items from paging, fails marks, or
/// refuses the key. Every request it gets is recorded. (`ColdsweatTests` use a real server;
/// this one is for the faults a real one cannot be made to show.)
final class ScriptedFeverServer: Sendable {
    struct Item {
        var id: Int64
        var feed: Int64
        var title: String
    }

    struct State {
        var feeds: [(id: Int64, title: String)] = []
        var groups: [(id: Int64, title: String, feeds: [Int64])] = []
        var items: [Item] = []
        var unread: Set<Int64> = []
        var saved: Set<Int64> = []
        /// Answer every `since_id` as if it were 0.
        var ignoresSinceID = false
        /// Each page also carries the previous page's last item.
        var repeatsAcrossPages = false
        /// Leave items out of `since_id` pages (but not of `with_ids`).
        var hiddenFromPaging: Set<Int64> = []
        /// Status for every mark request, instead of applying it.
        var markStatus: Int?
        var refusesKey = false
        var requests: [String] = []
    }

    let state: Mutex<State>

    init(_ state: State = State()) {
        self.state = Mutex(state)
    }

    func with<T>(_ body: (inout State) -> T) -> T { state.withLock { body(&$0) } }

    var transport: InMemoryTransport {
        InMemoryTransport { [self] request in answer(request) }
    }

    static let endpoint = URL(string: "https://fever.example/api/")!

    func client() throws -> FeverClient {
        try FeverClient(
            endpoint: Self.endpoint, credentials: FeverCredentials(user: "u", password: "p"), transport: transport)
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        var parameters: [String: String] = [:]
        for item in URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? [] {
            parameters[item.name] = item.value ?? ""
        }
        for pair in String(decoding: request.body ?? Data(), as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            parameters[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        let (status, json) = state.withLock { state in
            state.requests.append(
                parameters.keys.filter { $0 != "api_key" && $0 != "api" }.sorted().map { name in
                    parameters[name, default: ""].isEmpty ? name : "\(name)=\(parameters[name, default: ""])"
                }
                    .joined(separator: "&"))
            return Self.respond(parameters, &state)
        }
        return HTTPResponse(
            status: status, headers: ["Content-Type": "application/json"], body: Data(json.utf8), url: request.url)
    }

    private static func respond(_ parameters: [String: String], _ state: inout State) -> (Int, String) {
        if state.refusesKey { return (200, #"{"api_version":3,"auth":0}"#) }
        var fields: [String] = [#""api_version":3"#, #""auth":1"#]
        if let mark = parameters["mark"] {
            if let status = state.markStatus { return (status, "{}") }
            let id = Int64(parameters["id"] ?? "") ?? -1
            switch (mark, parameters["as"]) {
            case ("item", "read"): state.unread.remove(id)
            case ("item", "unread"): state.unread.insert(id)
            case ("item", "saved"): state.saved.insert(id)
            case ("item", "unsaved"): state.saved.remove(id)
            case ("feed", "read"): for item in state.items where item.feed == id { state.unread.remove(item.id) }
            default: return (400, "{}")
            }
        }
        if parameters["feeds"] != nil || parameters["groups"] != nil {
            let feeds = state.feeds.map { #"{"id":\#($0.id),"title":"\#($0.title)","url":"https://\#($0.id).example/feed"}"# }
            let groups = state.groups.map { #"{"id":\#($0.id),"title":"\#($0.title)"}"# }
            let memberships = state.groups.map { group in
                #"{"group_id":\#(group.id),"feed_ids":"\#(group.feeds.map(String.init).joined(separator: ","))"}"#
            }
            if parameters["feeds"] != nil { fields.append(#""feeds":[\#(feeds.joined(separator: ","))]"#) }
            if parameters["groups"] != nil { fields.append(#""groups":[\#(groups.joined(separator: ","))]"#) }
            fields.append(#""feeds_groups":[\#(memberships.joined(separator: ","))]"#)
        }
        if parameters["items"] != nil {
            var page: [Item]
            if let ids = parameters["with_ids"] {
                let wanted = Set(ids.split(separator: ",").compactMap { Int64($0) })
                page = state.items.filter { wanted.contains($0.id) }
            } else {
                let after = state.ignoresSinceID ? 0 : Int64(parameters["since_id"] ?? "0") ?? 0
                let sorted = state.items.filter { !state.hiddenFromPaging.contains($0.id) }.sorted { $0.id < $1.id }
                page = Array(sorted.filter { $0.id > after }.prefix(FeverClient.pageSize))
                if state.repeatsAcrossPages, let previous = sorted.last(where: { $0.id <= after }) {
                    page.insert(previous, at: 0)
                    page.append(previous)
                }
            }
            let items = page.map { item in
                #"{"id":\#(item.id),"feed_id":\#(item.feed),"title":"\#(item.title)","author":"","html":"<p>\#(item.title)</p>","url":"https://\#(item.feed).example/\#(item.id)","is_read":\#(state.unread.contains(item.id) ? 0 : 1),"is_saved":\#(state.saved.contains(item.id) ? 1 : 0),"created_on_time":\#(1_790_000_000 + item.id)}"#
            }
            fields.append(#""total_items":\#(state.items.count)"#)
            fields.append(#""items":[\#(items.joined(separator: ","))]"#)
        }
        if parameters["unread_item_ids"] != nil {
            fields.append(#""unread_item_ids":"\#(state.unread.sorted().map(String.init).joined(separator: ","))""#)
        }
        if parameters["saved_item_ids"] != nil {
            fields.append(#""saved_item_ids":"\#(state.saved.sorted().map(String.init).joined(separator: ","))""#)
        }
        return (200, "{" + fields.joined(separator: ",") + "}")
    }
}

extension ScriptedFeverServer.State {
    /// Two feeds (1 in group "Tech", 2 in none) and `count` items alternating between them,
    /// all unread.
    static func twoFeeds(items count: Int) -> Self {
        var state = Self()
        state.feeds = [(1, "One"), (2, "Two")]
        state.groups = [(10, "Tech", [1])]
        state.items = (1...Int64(count)).map { ScriptedFeverServer.Item(id: $0, feed: $0 % 2 == 1 ? 1 : 2, title: "item \($0)") }
        state.unread = Set(1...Int64(count))
        return state
    }
}
