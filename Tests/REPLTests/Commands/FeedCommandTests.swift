import Foundation
import Testing

@testable import REPL

@Suite("feed and item commands")
struct FeedCommandTests {
    private func appWithFeed() async throws -> TestApp {
        let app = try await TestApp()
        app.server.serve("https://news.test/feed.xml", sampleRSS(title: "News", count: 3), headers: ["ETag": "\"v1\""])
        let result = await app.run(["feed add https://news.test/feed.xml"])
        #expect(result.status == 0, "\(result.err)")
        return app
    }

    @Test("feed add prints what it added; the JSON form has the id")
    func feedAdd() async throws {
        let app = try await TestApp()
        app.server.serve("https://news.test/feed.xml", sampleRSS(title: "News", count: 3))
        let result = await app.run(["feed add https://news.test/feed.xml --title 'My news'"])
        #expect(result.out == [#"added feed #1 "My news": 3 items (3 new)"#])
        app.server.serve("https://other.test/f", sampleRSS(title: "Other", count: 1))
        let json = try await app.json("feed add https://other.test/f")
        #expect(json["id"] as? Int == 2 && json["items"] as? Int == 1)
        let again = await app.run(["feed add https://news.test/feed.xml"])
        #expect(again.status == 1 && again.err == [#"error: already subscribed: feed #1 "My news""#])
        app.server.serve("https://nothing.test/", "", status: 404)
        let bad = await app.run(["feed add https://nothing.test/"])
        #expect(bad.status == 1 && bad.err == ["error: the server answered HTTP 404"])
        let typo = await app.run(["feed add https://news.test/x --tilte T"])
        #expect(typo.err == [#"error: feed add has no option "--tilte" (did you mean "--title"?)"#])
    }

    @Test("feed list: a table for people, SPEC's shape for --json")
    func feedList() async throws {
        let app = try await appWithFeed()
        let human = await app.run(["feed list"])
        #expect(
            human.out.first?.split(separator: "\n").map(String.init) == [
                "ID  TITLE  UNREAD  LAST RESULT  URL", " 1  News      3/3  ok           https://news.test/feed.xml",
            ])
        let json = try await app.json("feed list")
        let feed = try #require((json["feeds"] as? [[String: Any]])?.first)
        #expect(feed["id"] as? Int == 1 && feed["title"] as? String == "News" && feed["unread"] as? Int == 3)
        #expect(feed["total"] as? Int == 3 && feed["last_result"] as? String == "ok")
        #expect(feed["url"] as? String == "https://news.test/feed.xml")
        #expect(feed["refreshed_at"] as? String == "2026-11-22T10:00:00Z")
    }

    @Test("feed refresh summarises; the second pass is all not-modified; failures carry their reason")
    func feedRefresh() async throws {
        let app = try await appWithFeed()
        app.server.serve("https://dead.test/f", sampleRSS(title: "Dead", count: 1))
        _ = await app.run(["feed add https://dead.test/f"])
        app.server.serve("https://dead.test/f", "", status: 500)
        let human = await app.run(["feed refresh"])
        #expect(human.status == 0)
        #expect(
            human.out == [
                "refreshed 2 feeds: 0 new items, 1 not modified, 1 failed\n  #2 https://dead.test/f: the server answered HTTP 500"
            ])
        app.server.serve("https://news.test/feed.xml", sampleRSS(title: "News", count: 5), headers: ["ETag": "\"v2\""])
        let json = try await app.json("feed refresh 1")
        #expect(json["refreshed"] as? Int == 1 && json["new_items"] as? Int == 2 && json["not_modified"] as? Int == 0)
        #expect((json["failed"] as? [Any])?.isEmpty == true)
        let unknown = await app.run(["feed refresh 9"])
        #expect(unknown.status == 1 && unknown.err == ["error: no feed #9"])
    }

    @Test("feed refresh ends with status 1 when no feed could be refreshed; the summary keeps each reason")
    func feedRefreshAllFailed() async throws {
        let app = try await appWithFeed()
        app.server.serve("https://news.test/feed.xml", "", status: 500)
        let human = await app.run(["feed refresh"])
        #expect(human.status == 1)
        #expect(
            human.out == [
                "refreshed 1 feed: 0 new items, 0 not modified, 1 failed\n  #1 https://news.test/feed.xml: the server answered HTTP 500"
            ])
        #expect(human.err == ["error: the feed could not be refreshed"])
        let json = await app.run(["feed refresh"], json: true)
        #expect(json.status == 1 && json.out.count == 1)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data((json.out.first ?? "").utf8)) as? [String: Any])
        let failed = try #require(document["failed"] as? [[String: Any]])
        #expect(failed.first?["reason"] as? String == "the server answered HTTP 500")
        // One feed of two answering is a refresh that worked: status 0.
        app.server.serve("https://ok.test/f", sampleRSS(title: "OK", count: 1))
        _ = await app.run(["feed add https://ok.test/f"])
        #expect(await app.run(["feed refresh"]).status == 0)
    }

    @Test("feed rename, remove, export and import")
    func feedManagement() async throws {
        let app = try await appWithFeed()
        #expect(await app.run(["feed rename 1 Daily news"]).out == [#"renamed feed #1 to "Daily news""#])
        let opml = app.home.appendingPathComponent("out.opml").path
        #expect(await app.run(["feed export \(opml)"]).out == ["exported 1 feed to \(opml)"])
        #expect(await app.run(["feed remove 1"]).out == [#"removed feed #1 "Daily news" and its 3 items"#])
        #expect(await app.run(["feed remove 1"]).err == ["error: no feed #1"])
        let imported = await app.run(["feed import \(opml)"])
        #expect(imported.out == [#"imported 1 feed, 0 already present; run "feed refresh" to fetch them"#])
        #expect(try await app.json("feed import \(opml)")["already_present"] as? Int == 1)
        let missing = await app.run(["feed import /nonexistent.opml"])
        #expect(missing.status == 1 && missing.err.first?.hasPrefix("error: cannot read /nonexistent.opml") == true)
    }

    @Test("feed discover lists the feeds a page links to")
    func feedDiscover() async throws {
        let app = try await TestApp()
        app.server.serve(
            "https://site.test/",
            #"<html><head><link rel="alternate" type="application/atom+xml" title="Posts" href="/atom.xml"></head></html>"#,
            headers: ["Content-Type": "text/html"])
        let json = try await app.json("feed discover https://site.test/")
        let feeds = try #require(json["feeds"] as? [[String: Any]])
        #expect(feeds.first?["url"] as? String == "https://site.test/atom.xml")
        #expect(feeds.first?["title"] as? String == "Posts")
    }

    @Test("items lists newest first with filters and pages; --json has SPEC's keys")
    func items() async throws {
        let app = try await appWithFeed()
        let human = await app.run(["items"])
        let lines = try #require(human.out.first).split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines[1].hasSuffix("News  Story 0") && lines[1].contains("●"))
        let json = try await app.json("items --limit 2 --page 2")
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(items.map { $0["title"] as? String } == ["Story 2"])
        #expect(items.first?["feed_id"] as? Int == 1 && items.first?["unread"] as? Bool == true)
        #expect(items.first?["link"] as? String == "https://news.test/story/2")
        #expect(items.first?["published"] as? String == "2026-11-19T08:00:00Z")
        #expect(try await app.json("items --since yesterday")["items"].map { ($0 as? [Any])?.count } == 1)
        #expect(try await app.json("items --since -1m")["total"] as? Int == 3)
        #expect(try await app.json("items --since -1y")["total"] as? Int == 3)
        #expect(try await app.json("items --since +1m")["total"] as? Int == 0)
        #expect(try await app.json("items --search \"story 1\"")["total"] as? Int == 1)
        let bad = await app.run(["items --since someday"])
        #expect(bad.status == 1 && bad.err.first?.hasPrefix("error: --since:") == true)
        #expect(
            await app.run(["items --limit 0"]).err == [
                #"error: --limit needs a whole number from 1 to 10000 (got "0")"#
            ])
        let huge = await app.run(["items --page 9223372036854775807 --limit 2"])
        #expect(huge.status == 1 && huge.err.first?.hasPrefix("error: --page needs a whole number") == true)
        #expect(await app.run(["items --page 1000000 --limit 10000"]).out == ["no items on page 1000000 (there are 3)"])
        // The last page does not point at a next one.
        #expect(
            await app.run(["items --limit 2 --page 1"]).out.first?.hasSuffix(
                "1–2 of 3; more (or Enter) for the next page") == true)
        #expect(await app.run(["items --limit 2 --page 2"]).out.first?.contains("next page") == false)
    }

    @Test("item show prints the article as text and marks it read; item mark changes marks")
    func itemShowAndMark() async throws {
        let app = try await appWithFeed()
        let shown = await app.run(["read 1"])
        #expect(
            shown.out.first?.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == [
                "Story 0", "feed:   News", "date:   Saturday, 21 November 2026 at 08:00",
                "link:   https://news.test/story/0", "",
                "Body of story 0.",
            ])
        #expect(try await app.json("items --unread")["total"] as? Int == 2)
        #expect(await app.run(["item mark 2 3 star"]).out == ["marked 2 items starred"])
        #expect(try await app.json("items --starred")["total"] as? Int == 2)
        #expect(await app.run(["item mark --feed 1 --all read"]).out == ["marked 2 items of feed #1 read"])
        #expect(try await app.json("items --unread")["total"] as? Int == 0)
        #expect(
            await app.run(["item mark 2 stra"]).err == [
                #"error: "stra" is not read, unread, star or unstar (did you mean "star"?); usage: item mark <ID...> read|unread|star|unstar, or item mark --all read [--feed ID] [--tag TAG] [--view NAME] [--before DATE]"#
            ])
        #expect(await app.run(["item show 99"]).err == ["error: no item #99"])
        #expect(try await app.json("item show 2")["starred"] as? Bool == true)
    }
}
