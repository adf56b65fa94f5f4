import Foundation
import Networking
import NetworkingTestSupport
import Testing

@Suite("InMemoryTransport")
struct InMemoryTransportTests {
    @Test("a request nothing is scripted for fails the test that sent it, naming the method and URL, and throws")
    func unscriptedRequestFailsTheTest() async {
        let transport = InMemoryTransport([.init(url: URL(string: "https://a.example/scripted")!)])
        let request = HTTPRequest(method: .post, url: URL(string: "https://a.example/other")!)
        await withKnownIssue {
            await #expect(throws: NetworkError.transport("nothing scripted for POST https://a.example/other")) {
                try await transport.send(request)
            }
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["InMemoryTransport: nothing scripted for POST https://a.example/other"]
        }
        #expect(transport.requests == [request])
    }
}
