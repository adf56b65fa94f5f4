import Foundation
import Networking
import NetworkingTestSupport
import Testing

@testable import Accounts

/// The Fever client against scripted answers: what it sends, and how it reads good, odd and
/// broken answers. (`ColdsweatTests` runs it against a real server.)
@Suite("Fever client")
struct FeverClientTests {
    static let endpoint = URL(string: "https://rss.example.com/api/fever.php")!
    static let credentials = FeverCredentials(user: "reader@example.com", password: "correct horse battery")

    func client(_ stubs: InMemoryTransport.Stub...) throws -> (FeverClient, InMemoryTransport) {
        let transport = InMemoryTransport(stubs)
        return (try FeverClient(endpoint: Self.endpoint, credentials: Self.credentials, transport: transport), transport)
    }

    static func answer(_ fields: String) -> InMemoryTransport.Stub {
        .json(#"{"api_version":3,"auth":1,"last_refreshed_on_time":1795780399\#(fields.isEmpty ? "" : "," + fields)}"#)
    }

    @Test("MD5 gives RFC 1321's test-suite digests, and the API key is the MD5 of user:password")
    func apiKey() {
        let suite = [
            "": "d41d8cd98f00b204e9800998ecf8427e",
            "a": "0cc175b9c0f1b6a831c399e269772661",
            "abc": "900150983cd24fb0d6963f7d28e17f72",
            "message digest": "f96b697d7cb7938d525a2f31aaf161d0",
            "abcdefghijklmnopqrstuvwxyz": "c3fcd3d76192e4007dfb496cca67e13b",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789": "d174ab98d277d9f5a5611c2c9f419d9f",
            String(repeating: "1234567890", count: 8): "57edf4a22be3c955ac49da2e2107b67a",
        ]
        for (text, digest) in suite { #expect(MD5.hex(of: Array(text.utf8)) == digest, "\(text)") }
        // Python's hashlib.md5(b"reader@example.com:correct horse battery").hexdigest()
        #expect(Self.credentials.apiKey == "34f5f1669fd2e4ac22f0069ba6785567")
        #expect(Self.credentials.description == "reader@example.com:•••")
    }

    @Test("each call is a POST to endpoint?api&command with the key in a form body")
    func requestShape() async throws {
        let (client, transport) = try client(Self.answer(#""unread_item_ids":"""#))
        _ = try await client.unreadItemIDs()
        let request = try #require(transport.requests.first)
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "https://rss.example.com/api/fever.php?api&unread_item_ids")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(String(decoding: request.body ?? Data(), as: UTF8.self) == "api_key=\(Self.credentials.apiKey)")
    }

    @Test("the key goes over https, or plain http only to this machine")
    func insecureEndpoints() throws {
        for text in ["http://rss.example.com/fever/", "ftp://127.0.0.1/fever", "file:///tmp/fever", "https:///fever"] {
            let url = try #require(URL(string: text))
            #expect(throws: FeverError.insecureEndpoint(url)) {
                try FeverClient(endpoint: url, credentials: Self.credentials, transport: InMemoryTransport())
            }
        }
        for text in ["http://127.0.0.1:8080/fever/", "http://localhost/fever/", "http://[::1]/fever/", "https://rss.example.com/"] {
            #expect(FeverClient.mayCarryKey(try #require(URL(string: text))), "\(text)")
        }
    }

    @Test("groups, feeds and their groups, with ids as numbers or as strings")
    func groupsAndFeeds() async throws {
        let (client, _) = try client(
            Self.answer(
                #""groups":[{"id":1,"title":"Tech"},{"id":"2","title":"News"}],"feeds_groups":[{"group_id":1,"feed_ids":"3,4"},{"group_id":"2","feed_ids":"5"}]"#
            ),
            Self.answer(
                #""feeds":[{"id":"3","favicon_id":1,"title":"A blog","url":"https://a.example/feed","site_url":"https://a.example/","is_spark":0,"last_updated_on_time":"1739937120"},{"id":4,"title":null,"url":"javascript:alert(1)","site_url":"","last_updated_on_time":0}],"feeds_groups":[{"group_id":1,"feed_ids":"3,4"}]"#
            ))
        let (groups, feedGroups) = try await client.groups()
        #expect(groups == [FeverGroup(id: 1, title: "Tech"), FeverGroup(id: 2, title: "News")])
        #expect(feedGroups.feedsByGroup == [1: [3, 4], 2: [5]])
        let (feeds, _) = try await client.feeds()
        #expect(
            feeds == [
                FeverFeed(
                    id: 3, title: "A blog", url: URL(string: "https://a.example/feed"),
                    siteURL: URL(string: "https://a.example/"), lastUpdated: Date(timeIntervalSince1970: 1_739_937_120)),
                FeverFeed(id: 4, title: "", url: nil, siteURL: nil, lastUpdated: nil),
            ])
    }

    @Test("items: fields, flags in every spelling, and the page total")
    func items() async throws {
        let (client, transport) = try client(
            Self.answer(
                #""total_items":"2","items":[{"id":7,"feed_id":"3","title":"One","author":"Ann","html":"<p>x</p>","url":"https://a.example/1","is_saved":1,"is_read":"0","created_on_time":1739937120},{"id":"8","feed_id":3,"title":"Two","html":"","url":"","is_saved":false,"is_read":true}]"#
            ))
        let page = try await client.items(after: 6)
        #expect(transport.requests.first?.url.query == "api&items&since_id=6")
        #expect(page.total == 2)
        #expect(
            page.items == [
                FeverItem(
                    id: 7, feedID: 3, title: "One", author: "Ann", html: "<p>x</p>", url: URL(string: "https://a.example/1"),
                    isRead: false, isSaved: true, created: Date(timeIntervalSince1970: 1_739_937_120)),
                FeverItem(
                    id: 8, feedID: 3, title: "Two", author: "", html: "", url: nil, isRead: true, isSaved: false,
                    created: nil),
            ])
    }

    @Test("items by id are asked 50 at a time")
    func itemsByID() async throws {
        let (client, transport) = try client(Self.answer(#""items":[]"#), Self.answer(#""items":[]"#), Self.answer(#""items":[]"#))
        _ = try await client.items(ids: Array(1...120))
        let lists = transport.requests.compactMap { request in
            URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "with_ids" }?.value
        }
        #expect(lists.map { $0.split(separator: ",").count } == [50, 50, 20])
        #expect(lists.first?.hasPrefix("1,2,3,") == true)
    }

    @Test("unread and saved ids: a comma-separated string, a list, or empty")
    func idLists() async throws {
        let (client, _) = try client(
            Self.answer(#""unread_item_ids":"1,2, 3,,5""#), Self.answer(#""saved_item_ids":[7,"8"]"#),
            Self.answer(#""unread_item_ids":"""#))
        #expect(try await client.unreadItemIDs() == [1, 2, 3, 5])
        #expect(try await client.savedItemIDs() == [7, 8])
        #expect(try await client.unreadItemIDs() == [])
    }

    @Test("marks go in the form body: the item, feed or group, and for feeds and groups a time in seconds")
    func marks() async throws {
        let (client, transport) = try client(Self.answer(""), Self.answer(""), Self.answer(""))
        try await client.mark(item: 42, .saved)
        try await client.markFeedRead(3, before: Date(timeIntervalSince1970: 1_795_780_399.7))
        try await client.markGroupRead(0, before: Date(timeIntervalSince1970: 100))
        #expect(transport.requests.map { $0.url.query ?? "" } == ["api", "api", "api"])
        let key = "api_key=\(Self.credentials.apiKey)"
        #expect(
            transport.requests.map { String(decoding: $0.body ?? Data(), as: UTF8.self) } == [
                "\(key)&mark=item&as=saved&id=42", "\(key)&mark=feed&as=read&id=3&before=1795780399",
                "\(key)&mark=group&as=read&id=0&before=100",
            ])
    }

    @Test("each bad answer has its own error, and none repeats the server's text")
    func badAnswers() async throws {
        let cases: [(InMemoryTransport.Stub, FeverError)] = [
            (.json(#"{"api_version":3,"auth":0}"#), .unauthorized),
            (InMemoryTransport.Stub(status: 401), .unauthorized),
            (
                InMemoryTransport.Stub(body: Data("<!DOCTYPE html><title>Login \u{1B}[31m</title>".utf8)),
                .notFever("an HTML or XML page (is the URL the API's endpoint?)")
            ),
            (InMemoryTransport.Stub(body: Data()), .notFever("an empty answer")),
            (.json(#"{"api_version":3,"auth":1,"items":[{"id":1,"#), .malformed("the JSON is cut off or invalid (43 bytes)")),
            (.json(#"{"auth":1}"#), .notFever("JSON without api_version")),
            (.json(#"[1,2]"#), .notFever("a JSON array, not an object")),
            (.json(#"{"api_version":3,"auth":1,"items":[{"id":1,"title":"no feed"}]}"#), .malformed("items[0].feed_id is missing")),
            (.json(#"{"api_version":3,"auth":1,"items":[{"id":-4,"feed_id":1}]}"#), .malformed("items[0].id is not an id")),
            (.json(#"{"api_version":3,"auth":1,"items":{"id":1}}"#), .malformed("items is not a list")),
            (.json(#"{"api_version":3,"auth":1}"#), .malformed("items is missing")),
        ]
        for (stub, expected) in cases {
            let (client, _) = try client(stub)
            await #expect(throws: expected) { try await client.items(after: 0) }
        }
        let (failing, _) = try client(InMemoryTransport.Stub(status: 500))
        await #expect {
            try await failing.verify()
        } throws: { error in
            guard case .network(.status(let response)) = error as? FeverError else { return false }
            return response.status == 500
        }
        let (down, _) = try client(InMemoryTransport.Stub(error: .transport("connection refused")))
        await #expect(throws: FeverError.network(.transport("connection refused"))) { try await down.verify() }
    }
}
