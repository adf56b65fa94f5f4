import Foundation
import Testing

@testable import Chores
import Networking

/// Where a CalDAV password comes from, and where it may go.
@Suite("CalDAV credentials")
struct CalDAVCredentialsTests {
    static let netrc = """
        # machine commented.example login nobody password never
        machine other.example login bob password bobs
        machine DAV.Example.org
          login alice
          password "two words \\"quoted\\""
        macdef init
        machine dav.example.org login mallory password macro-line

        machine dav.example.org login carol password carols
        default login anyone password fallback
        """

    @Test("a .netrc: machine entries, quoted passwords, comments and macros skipped, default last")
    func parsing() {
        let entries = Netrc(parsing: Self.netrc).entries
        #expect(
            entries == [
                Netrc.Entry(machine: "other.example", login: "bob", password: "bobs"),
                Netrc.Entry(machine: "DAV.Example.org", login: "alice", password: "two words \"quoted\""),
                Netrc.Entry(machine: "dav.example.org", login: "carol", password: "carols"),
                Netrc.Entry(machine: nil, login: "anyone", password: "fallback"),
            ])
    }

    @Test("the environment's password wins for the user set up; else the host's entry for that user; else default")
    func finding() throws {
        let url = try #require(URL(string: "https://dav.example.org/alice/chores/"))
        func find(_ user: String?, _ environment: [String: String] = [:], netrc: String? = Self.netrc)
            -> CalDAVCredentials?
        {
            CalDAVCredentials.find(for: url, user: user, environment: environment, netrc: netrc)
        }
        #expect(
            find("alice", ["TIDINGS_CALDAV_PASSWORD": "from-env"])
                == CalDAVCredentials(user: "alice", password: "from-env"))
        #expect(find("alice") == CalDAVCredentials(user: "alice", password: "two words \"quoted\""))
        #expect(find("carol") == CalDAVCredentials(user: "carol", password: "carols"))
        #expect(find(nil) == CalDAVCredentials(user: "alice", password: "two words \"quoted\""))
        // A user no entry names gets nothing: every entry here is for another login.
        #expect(find("dave") == nil)
        #expect(find("alice", netrc: nil) == nil)
        #expect(find(nil, ["TIDINGS_CALDAV_PASSWORD": "x"], netrc: nil) == nil)
        // Never printed.
        #expect("\(find("alice")!)" == "alice:•••")
    }

    @Test(
        "a password goes over https, or over http only to this machine",
        arguments: [
            ("https://dav.example.org/c/", true), ("https://10.0.0.1/c/", true), ("http://127.0.0.1:5232/c/", true),
            ("http://localhost/c/", true), ("http://[::1]:8080/c/", true), ("http://127.9.9.9/c/", true),
            ("http://dav.example.org/c/", false), ("http://10.0.0.1/c/", false),
            ("http://127.0.0.1.evil.test/c/", false),
            ("http://localhost.evil.test/c/", false), ("http://127.1/c/", false), ("ftp://127.0.0.1/c/", false),
            ("file:///etc/passwd", false),
        ])
    func transportRule(url: String, allowed: Bool) throws {
        #expect(CalDAVCredentials.mayCarryCredentials(try #require(URL(string: url))) == allowed)
    }

    @Test(
        "the composition root's provider takes the environment it is given and reads the netrc file again at each request, so a changed file is seen"
    )
    func providerReadsTheFileEachTime() throws {
        let url = try #require(URL(string: "https://dav.example.org/alice/chores/"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("netrc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("machine dav.example.org login alice password first".utf8).write(to: file)
        let provider = CalDAVCredentialsProvider.environmentAndNetrc([:], netrc: file)
        #expect(!provider.hasPasswordWithoutUser)
        #expect(provider.credentials(url, "alice") == CalDAVCredentials(user: "alice", password: "first"))
        try Data("machine dav.example.org login alice password second".utf8).write(to: file)
        #expect(provider.credentials(url, "alice") == CalDAVCredentials(user: "alice", password: "second"))
        let environment = CalDAVCredentialsProvider.environmentAndNetrc(
            ["TIDINGS_CALDAV_PASSWORD": "env"], netrc: nil)
        #expect(environment.hasPasswordWithoutUser)
        #expect(environment.credentials(url, "bob") == CalDAVCredentials(user: "bob", password: "env"))
        #expect(environment.credentials(url, nil) == nil)
    }
}
