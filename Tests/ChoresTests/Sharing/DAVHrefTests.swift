import Testing

@testable import Chores

/// Hrefs and entity tags compared as servers spell them.
@Suite("DAV hrefs and entity tags")
struct DAVHrefTests {
    @Test(
        "one path spelled several ways has one canonical form; an escaped slash stays a character of the name",
        arguments: [
            ("/alice/chores/a@b.ics", "/alice/chores/a%40b.ics"),
            ("/alice/chores/bins day.ics", "/alice/chores/bins%20day.ics"),
            ("/alice/chores/%c3%a9t%C3%A9.ics", "/alice/chores/été.ics"),
            ("/alice/chores/%7Ehome%2dtasks.ics", "/alice/chores/~home-tasks.ics"),
            ("http://127.0.0.1:5232/alice/chores/a%40b.ics", "/alice/chores/a@b.ics"),
            ("https://dav.example/alice/chores/x.ics?v=1#top", "/alice/chores/x.ics"),
        ])
    func sameObject(_ pair: (String, String)) {
        #expect(DAVHref.path(of: pair.0) == DAVHref.path(of: pair.1))
    }

    @Test(
        "names that differ stay apart: an escaped slash, question mark, hash or percent sign is not the character",
        arguments: [
            ("/alice/chores/x%2Fy.ics", "/alice/chores/x/y.ics"),
            ("/alice/chores/x%3Fy.ics", "/alice/chores/x"),
            ("/alice/chores/x%23y.ics", "/alice/chores/x"),
            ("/alice/chores/%2541.ics", "/alice/chores/A.ics"),
        ])
    func differentObjects(_ pair: (String, String)) {
        #expect(DAVHref.path(of: pair.0) != DAVHref.path(of: pair.1))
    }

    @Test("the canonical form is an escaped path, upper-case hex, and taking it twice changes nothing")
    func canonicalForm() {
        #expect(DAVHref.canonical("/a/x%2fy z%zz%.ics") == "/a/x%2Fy%20z%25zz%25.ics")
        #expect(DAVHref.canonical("/a/é\u{1}.ics") == "/a/%C3%A9%01.ics")
        for path in ["/a/x%2Fy z%zz%.ics", "/a/é.ics", "/alice/chores/a@b;c=d.ics", "/a/%41%2F%25"] {
            let once = DAVHref.canonical(path)
            #expect(DAVHref.canonical(once) == once, "\(path)")
        }
    }

    @Test("a weak tag and a strong one with the same opaque value are weakly equal; different values are not")
    func entityTags() {
        #expect(EntityTag.isWeak("W/\"x\""))
        #expect(!EntityTag.isWeak("\"W/x\""))
        #expect(EntityTag.opaque("W/\"x\"") == "\"x\"")
        #expect(EntityTag.weaklyEqual("W/\"x\"", "\"x\""))
        #expect(EntityTag.weaklyEqual("W/\"x\"", "W/\"x\""))
        #expect(!EntityTag.weaklyEqual("W/\"x\"", "W/\"y\""))
        #expect(!EntityTag.weaklyEqual("\"x\"", "\"W/x\""))
    }
}
