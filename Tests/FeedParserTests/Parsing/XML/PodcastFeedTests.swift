import Foundation
import Models
import Testing

@testable import FeedParser

/// Podcast and video feeds read as well as in a podcast app: the iTunes namespace and Media
/// RSS stand in for the core fields a feed leaves out, and give images, durations, episode and
/// season numbers.
@Suite("Podcast and video feeds: iTunes and Media RSS")
struct PodcastFeedTests {
    @Test("iTunes: the channel's summary, author and cover art; each episode's summary, image and numbers")
    func itunes() throws {
        let feed = try parseFixture("rss/podcast-itunes.xml", url: "https://itunes-only.example/feed.xml")
        #expect(feed.description == "A show about shows.")
        #expect(feed.authors == [Author(name: "The Hosts")])
        #expect(feed.image == URL(string: "https://itunes-only.example/art/cover.jpg"))
        #expect(feed.icon == URL(string: "https://itunes-only.example/art/cover.jpg"))
        let items = feed.items
        #expect(
            items.map(\.summary) == [
                "Episode one, summarised.", "Only a subtitle", "The summary", nil, nil,
            ])
        #expect(items[2].contentHTML == "<p>Show notes</p>")
        #expect(items.map(\.duration) == [3723, 3723, 3723, nil, 3723])
        #expect(items.map(\.episode) == [1, 2, nil, nil, nil])
        #expect(items.map(\.season) == [2, nil, nil, nil, nil])
        #expect(items[0].image == URL(string: "https://itunes-only.example/art/ep1.jpg"))
        #expect(items[1].image == nil)
    }

    @Test("a YouTube channel feed: each video's description, thumbnail and player from media:group")
    func youtube() throws {
        let feed = try parseFixture("atom/youtube-channel.xml")
        #expect(feed.title == "Example Channel")
        let video = try #require(feed.items.first)
        #expect(video.title == "A video")
        #expect(video.summary == "What this video is about.\nLinks in the description.")
        #expect(video.image == URL(string: "https://i1.ytimg.com/vi/abc123/hqdefault.jpg"))
        #expect(video.link == URL(string: "https://www.youtube.com/watch?v=abc123"))
        #expect(
            video.enclosures.first
                == Enclosure(
                    url: URL(string: "https://www.youtube.com/v/abc123?version=3")!,
                    mimeType: "application/x-shockwave-flash"))
        #expect(video.authors.map(\.name) == ["Example Channel"])
    }

    @Test("Media RSS: a group's description, title, contents and duration; an image content is the image")
    func mediaGroup() throws {
        let feed = try parseFixture("rss/media-rss-group.xml")
        #expect(feed.description == "Channel by media")
        #expect(feed.image == URL(string: "https://media-only.example/channel.jpg"))
        let first = feed.items[0]
        #expect(first.title == "Grouped title")
        #expect(first.summary == "Grouped description")
        #expect(first.duration == 185)
        #expect(
            first.enclosures == [
                Enclosure(
                    url: URL(string: "https://media-only.example/v/m1.mp4")!, mimeType: "video/mp4", length: 12345),
                Enclosure(url: URL(string: "https://media-only.example/v/m1.webm")!, mimeType: "video/webm"),
            ])
        #expect(first.image == nil)
        #expect(feed.items[1].image == URL(string: "https://media-only.example/i/m2.png"))
    }

    @Test("a parsed item's podcast fields reach the article it becomes")
    func article() throws {
        let feed = try parseFixture("rss/podcast-itunes.xml", url: "https://itunes-only.example/feed.xml")
        let article = try #require(feed.items.first).article(feedID: 1)
        #expect(article.image == URL(string: "https://itunes-only.example/art/ep1.jpg"))
        #expect(article.duration == 3723)
        #expect(article.episode == 1)
        #expect(article.season == 2)
    }

    @Test(
        "durations: HH:MM:SS, MM:SS, seconds, fractions dropped; anything else is none",
        arguments: [
            ("1:02:03", 3723), ("01:02:03", 3723), ("62:03", 3723), ("3723", 3723), (" 3723 ", 3723),
            ("3723.9", 3723), ("00:00:05.250", 5), ("0", 0), ("10:00:00", 36000),
        ])
    func durations(text: String, seconds: Int) {
        #expect(MediaDuration.seconds(text) == seconds)
    }

    @Test(
        "unreadable durations are none, never a trap",
        arguments: ["", "abc", "-5", "1:-2", "1::2", "1:2:3:4", "99999999999999999999", "1.5.5", "٣", "12s", ":"])
    func unreadableDurations(text: String) {
        #expect(MediaDuration.seconds(text) == nil)
    }
}
