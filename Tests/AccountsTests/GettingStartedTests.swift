import Accounts
import Foundation
import Testing

// The snippet of Sources/Accounts/Accounts.docc/Accounts.md, line for line (DocumentationTests
// holds the page to this file).

/// The Fever API key of `user` and `password` for `endpoint`, or `nil` when the endpoint would
/// carry it readable (plain http to another machine).
func feverKey(for endpoint: URL, user: String, password: String) -> String? {
    guard FeverClient.mayCarryKey(endpoint) else { return nil }
    return FeverCredentials(user: user, password: password).apiKey
}

@Suite("Accounts: getting started")
struct AccountsGettingStartedTests {
    @Test("the key goes to an https endpoint (the MD5 of user:password), not to plain http elsewhere")
    func key() throws {
        let https = try #require(URL(string: "https://rss.example.org/api/fever.php"))
        // Python: hashlib.md5(b"reader@example.com:correct horse battery").hexdigest()
        #expect(
            feverKey(for: https, user: "reader@example.com", password: "correct horse battery")
                == "34f5f1669fd2e4ac22f0069ba6785567")
        #expect(feverKey(for: try #require(URL(string: "http://rss.example.org/fever/")), user: "a", password: "b") == nil)
    }
}
