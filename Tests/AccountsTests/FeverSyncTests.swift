import Foundation
import Networking
import NetworkingTestSupport
import Synchronization
import Testing

@testable import Accounts

/// The sync engine against a scripted Fever server: what it stores, sends and skips, and how
/// each fault leaves the store.
@Suite("Fever sync")
struct FeverSyncTests {
    func sync(_ server: ScriptedFeverServer, _ store: MemoryAccountStore) async throws -> AccountSyncSummary {
        try await FeverSync(client: try server.client(), store: store).sync()
    }

    @Test("a first sync stores the feeds with their folders and every item, page by page, with the server's states")
    func firstSync() async throws {
        var state = ScriptedFeverServer.State.twoFeeds(items: 120)
        state.unread.subtract([3, 4])
        state.saved = [5]
        let server = ScriptedFeverServer(state)
        let store = MemoryAccountStore()
        let summary = try await sync(server, store)
        #expect(summary.newItems == 120)
        #expect(summary.feedsAdded == 2)
        #expect(await store.feeds["1"]?.folders == ["Tech"])
        #expect(await store.feeds["2"]?.folders == [])
        #expect(await store.items.count == 120)
        #expect(await store.cursor == 120)
        #expect(await store.unread == Set((1...120).map(String.init)).subtracting(["3", "4"]))
        #expect(await store.starred == ["5"])
        #expect(await store.syncedAt != nil)
        let pages = server.with { $0.requests.filter { $0.hasPrefix("items") } }
        #expect(pages == ["items&since_id=0", "items&since_id=50", "items&since_id=100", "items&since_id=120"])

        // A quiet sync: nothing to send, feeds, one empty page, the two id lists.
        server.with { $0.requests = [] }
        let quiet = try await sync(server, store)
        #expect(quiet == AccountSyncSummary())
        #expect(
            server.with { $0.requests } == [
                "feeds", "groups", "items&since_id=120", "unread_item_ids", "saved_item_ids",
            ])
    }

    @Test(
        "items repeated across pages or within one, reused ids and items of unlisted feeds are stored once or skipped")
    func repeatsAndStrays() async throws {
        var state = ScriptedFeverServer.State.twoFeeds(items: 75)
        state.repeatsAcrossPages = true
        state.items[2].feed = 999  // item 3, of a feed the server never lists
        let server = ScriptedFeverServer(state)
        let store = MemoryAccountStore()
        let summary = try await sync(server, store)
        #expect(summary.newItems == 74)
        #expect(await store.items.count == 74)
        #expect(summary.skipped == ["item 3: its feed (999) is not one the server lists"])
        #expect(await store.items["3"] == nil)
        #expect(await store.cursor == 75)
    }

    @Test("a server that ignores since_id gives its first page once; the unread and saved items still all arrive")
    func ignoredSinceID() async throws {
        var state = ScriptedFeverServer.State.twoFeeds(items: 120)
        state.ignoresSinceID = true
        state.unread = [10, 60, 110]
        state.saved = [119]
        let server = ScriptedFeverServer(state)
        let store = MemoryAccountStore()
        let summary = try await sync(server, store)
        #expect(
            server.with { $0.requests.filter { $0.hasPrefix("items&since_id") } } == [
                "items&since_id=0", "items&since_id=50",
            ])
        #expect(summary.newItems == 53)
        #expect(await store.unread == ["10", "60", "110"])
        #expect(await store.starred == ["119"])
    }

    @Test("a server that sends new ids without end is stopped past what it said it holds")
    func endlessItems() async throws {
        let server = ScriptedFeverServer(.twoFeeds(items: 60))
        // Every page claims 60 items in all but has 50 new ones.
        let transport = InMemoryTransport { request in
            let query = request.url.query ?? ""
            if query.contains("since_id=") {
                let after = Int64(query.components(separatedBy: "since_id=").last ?? "0") ?? 0
                let items = (after + 1...after + 50).map { #"{"id":\#($0),"feed_id":1,"title":"x"}"# }
                return HTTPResponse(
                    status: 200,
                    body: Data(
                        #"{"api_version":3,"auth":1,"total_items":60,"items":[\#(items.joined(separator: ","))]}"#.utf8),
                    url: request.url)
            }
            return HTTPResponse(
                status: 200,
                body: Data(#"{"api_version":3,"auth":1,"feeds":[{"id":1,"title":"One"}],"groups":[]}"#.utf8),
                url: request.url)
        }
        _ = server
        let client = try FeverClient(
            endpoint: ScriptedFeverServer.endpoint, credentials: FeverCredentials(user: "u", password: "p"),
            transport: transport)
        let store = MemoryAccountStore()
        await #expect {
            try await FeverSync(client: client, store: store).sync()
        } throws: { error in
            guard case .endlessItems = error as? AccountSyncError else { return false }
            return true
        }
        #expect(await store.items.count < 2_000)
    }

    /// What a scripted server was asked, in order.
    final class RequestLog: Sendable {
        let lines = Mutex<[String]>([])
    }

    /// A Fever server that pages out new ids without end (`total`: its `total_items`, if any)
    /// and names `unread` ids in its unread list; its requests are counted.
    static func endlessServer(total: String?, pages: Int64 = .max, unread: ClosedRange<Int64>? = nil) -> (
        FeverClient, RequestLog
    )? {
        let requests = RequestLog()
        let transport = InMemoryTransport { request in
            let query = request.url.query ?? ""
            let body = String(decoding: request.body ?? Data(), as: UTF8.self)
            requests.lines.withLock { $0.append(query.isEmpty ? body : query) }
            let head = #"{"api_version":3,"auth":1"# + (total.map { #","total_items":\#($0)"# } ?? "")
            let json: String
            if query.contains("since_id=") {
                let after = Int64(query.components(separatedBy: "since_id=").last ?? "0") ?? 0
                let items =
                    after / 50 >= pages
                    ? [] : (after + 1...after + 50).map { #"{"id":\#($0),"feed_id":1,"title":"x"}"# }
                json = head + #","items":[\#(items.joined(separator: ","))]}"#
            } else if query.contains("with_ids") || body.contains("with_ids") {
                json = head + #","items":[]}"#
            } else if query.contains("unread_item_ids") {
                json =
                    head + #","unread_item_ids":"\#(unread.map { $0.map(String.init).joined(separator: ",") } ?? "")"}"#
            } else if query.contains("saved_item_ids") {
                json = head + #","saved_item_ids":""}"#
            } else {
                json = head + #","feeds":[{"id":1,"title":"One"}],"groups":[]}"#
            }
            return HTTPResponse(status: 200, body: Data(json.utf8), url: request.url)
        }
        guard
            let client = try? FeverClient(
                endpoint: ScriptedFeverServer.endpoint, credentials: FeverCredentials(user: "u", password: "p"),
                transport: transport)
        else { return nil }
        return (client, requests)
    }

    @Test(
        "a server that sends new ids without end and no total, or a total past belief, is stopped after the most one sync takes; the next sync goes on from there",
        .timeLimit(.minutes(2)), arguments: [nil, "9000000000000000"])
    func endlessItemsWithoutTotal(total: String?) async throws {
        let (client, requests) = try #require(Self.endlessServer(total: total))
        let store = MemoryAccountStore()
        await #expect(throws: AccountSyncError.tooManyItems(limit: FeverSync.maxItemsPerSync)) {
            try await FeverSync(client: client, store: store).sync()
        }
        let stored = await store.items.count
        #expect(stored == FeverSync.maxItemsPerSync)
        #expect(requests.lines.withLock { $0.count } < FeverSync.maxItemsPerSync / 50 + 10)
        await #expect(throws: AccountSyncError.tooManyItems(limit: FeverSync.maxItemsPerSync)) {
            try await FeverSync(client: client, store: store).sync()
        }
        #expect(await store.items.count == 2 * FeverSync.maxItemsPerSync)
    }

    @Test(
        "unread ids that paging never sent are asked for at most a tenth of a sync's items at a time, the newest first")
    func manyMissingIDs() async throws {
        // Nothing to page; 600,000 unread ids the server never sends (1,200 pages of with_ids).
        let (client, requests) = try #require(Self.endlessServer(total: "0", pages: 0, unread: 1...600_000))
        let store = MemoryAccountStore()
        _ = try await FeverSync(client: client, store: store).sync()
        let asked = requests.lines.withLock { $0.filter { $0.contains("with_ids") } }
        #expect(asked.count == FeverSync.maxItemsPerSync / 10 / 50)
        #expect(asked.first?.contains("590001") == true, "\(asked.first ?? "")")
    }

    @Test("items the unread or saved ids name but paging never sent are fetched by id")
    func missingFromPaging() async throws {
        var state = ScriptedFeverServer.State.twoFeeds(items: 10)
        state.hiddenFromPaging = [4, 7]
        state.saved = [7]
        let server = ScriptedFeverServer(state)
        let store = MemoryAccountStore()
        let summary = try await sync(server, store)
        #expect(summary.newItems == 10)
        #expect(await store.starred == ["7"])
        #expect(server.with { $0.requests.contains("items&with_ids=4,7") })
    }

    @Test("offline marks are sent once each, a mark undone is not sent, and the server's changes apply elsewhere")
    func marks() async throws {
        let server = ScriptedFeverServer(.twoFeeds(items: 6))
        let store = MemoryAccountStore()
        _ = try await sync(server, store)
        // Offline: read 1; read then unread 2 (no change); star 3; read feed 2 (items 2, 4, 6).
        await store.markRead("1")
        await store.markRead("2")
        await store.markRead("2", false)
        await store.star("3")
        let before = Date(timeIntervalSince1970: 1_800_000_000)
        await store.markFeedRead("2", before: before)
        // Meanwhile, elsewhere: 5 read, 3 saved too.
        server.with {
            $0.unread.remove(5)
            $0.saved.insert(3)
            $0.requests = []
        }
        let summary = try await sync(server, store)
        #expect(summary.marksSent == 3)
        #expect(summary.marksDropped == 2)
        #expect(
            server.with { Array($0.requests.prefix(3)) } == [
                "as=read&id=1&mark=item", "as=saved&id=3&mark=item", "as=read&before=1800000000&id=2&mark=feed",
            ])
        #expect(await store.marks.isEmpty)
        #expect(await store.unread == ["3"])
        #expect(server.with { $0.unread } == [3])
        #expect(await store.starred == ["3"])
    }

    @Test("a mark the server refuses stays pending and stops the sync; one for an item it lost is dropped")
    func refusedMarks() async throws {
        let server = ScriptedFeverServer(.twoFeeds(items: 4))
        let store = MemoryAccountStore()
        _ = try await sync(server, store)
        await store.markRead("1")
        await store.star("2")
        server.with { $0.markStatus = 500 }
        await #expect {
            try await sync(server, store)
        } throws: { error in
            guard case .server(.network(.status(let response))) = error as? AccountSyncError else { return false }
            return response.status == 500
        }
        #expect(await store.marks.count == 2)
        // The local states stay as the user set them.
        #expect(await store.unread == ["2", "3", "4"])
        #expect(await store.starred == ["2"])

        server.with { $0.markStatus = 404 }
        let summary = try await sync(server, store)
        #expect(summary.marksDropped == 2)
        #expect(await store.marks.isEmpty)
        // Dropped: the server's states apply.
        #expect(await store.unread == ["1", "2", "3", "4"])
    }

    @Test("a refused key fails the sync with its reason and sends nothing, marks kept")
    func refusedKey() async throws {
        let server = ScriptedFeverServer(.twoFeeds(items: 2))
        let store = MemoryAccountStore()
        _ = try await sync(server, store)
        await store.markRead("1")
        server.with { $0.refusesKey = true }
        await #expect(throws: AccountSyncError.server(.unauthorized)) { try await sync(server, store) }
        #expect(await store.marks.count == 1)
        #expect(await store.problem == FeverError.unauthorized.errorDescription)
    }

    @Test("a sync whose store fails midway is completed by the next one, each item stored once")
    func interrupted() async throws {
        let server = ScriptedFeverServer(.twoFeeds(items: 130))
        let store = MemoryAccountStore()
        await store.failItemWrite(after: 1)
        await #expect(throws: AccountSyncError.storage("disk full")) { try await sync(server, store) }
        #expect(await store.items.count == 50)
        #expect(await store.cursor == 50)
        let summary = try await sync(server, store)
        #expect(summary.newItems == 80)
        #expect(await store.items.count == 130)
        #expect(await store.syncedAt != nil)
        #expect(await store.problem == nil)
    }

    @Test("feeds the server no longer lists go, with their items")
    func removedFeeds() async throws {
        let server = ScriptedFeverServer(.twoFeeds(items: 4))
        let store = MemoryAccountStore()
        _ = try await sync(server, store)
        server.with {
            $0.feeds.removeAll { $0.id == 2 }
            $0.items.removeAll { $0.feed == 2 }
            $0.unread = [1, 3]
        }
        let summary = try await sync(server, store)
        #expect(summary.feedsRemoved == 1)
        #expect(await Set(store.items.keys) == ["1", "3"])
    }
}
