import Foundation
import Testing

@testable import Accounts

/// Where a Fever password comes from: the environment for the user set up, else ~/.netrc.
@Suite("Fever credentials")
struct FeverCredentialsTests {
    static let endpoint = URL(string: "https://RSS.example.org/api/fever.php")!
    static let netrc = """
        machine other.example login bob password bobs
        machine rss.example.org login alice password "two words"
        machine rss.example.org login carol password carols
        default login anyone password fallback
        """

    @Test("the environment's password goes with the user set up; without a user it is not used")
    func environment() {
        let environment = [FeverCredentials.passwordVariable: "secret"]
        #expect(
            FeverCredentials.find(for: Self.endpoint, user: "dana", environment: environment, netrc: Self.netrc)
                == FeverCredentials(user: "dana", password: "secret"))
        #expect(
            FeverCredentials.find(for: Self.endpoint, user: nil, environment: environment, netrc: nil) == nil)
    }

    @Test("the netrc's entry for the host (any case) and the user, else its first, else the default; never another user's")
    func netrc() {
        func find(_ user: String?, _ url: URL = Self.endpoint) -> FeverCredentials? {
            FeverCredentials.find(for: url, user: user, environment: [:], netrc: Self.netrc)
        }
        #expect(find("carol") == FeverCredentials(user: "carol", password: "carols"))
        #expect(find(nil) == FeverCredentials(user: "alice", password: "two words"))
        // No entry is erin's: neither the host's (alice's, carol's) nor the default (anyone's).
        #expect(find("erin") == nil)
        #expect(find(nil, URL(string: "https://unknown.example/")!) == FeverCredentials(user: "anyone", password: "fallback"))
        #expect(FeverCredentials.find(for: Self.endpoint, user: nil, environment: [:], netrc: nil) == nil)
    }

    @Test("the provider reads the netrc file again at each request")
    func provider() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-netrc-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let provider = FeverCredentialsProvider.environmentAndNetrc([:], netrc: file)
        #expect(provider.credentials(Self.endpoint, nil) == nil)
        try Data("machine rss.example.org login alice password first".utf8).write(to: file)
        #expect(provider.credentials(Self.endpoint, nil) == FeverCredentials(user: "alice", password: "first"))
        try Data("machine rss.example.org login alice password second".utf8).write(to: file)
        #expect(provider.credentials(Self.endpoint, "alice")?.password == "second")
        let fromEnvironment = FeverCredentialsProvider.environmentAndNetrc(
            [FeverCredentials.passwordVariable: "env"], netrc: file)
        #expect(fromEnvironment.credentials(Self.endpoint, "alice")?.password == "env")
        #expect(String(describing: FeverCredentials(user: "alice", password: "env")) == "alice:•••")
    }
}
