import Foundation
import Networking
import NetworkingTestSupport
import Synchronization
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

    @Test("streamed, a scripted body reaches the receiver in pieces when taken, and stays in the response when not")
    func streams() async throws {
        let url = URL(string: "https://a.example/episode.mp3")!
        let body = Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0) })
        let transport = InMemoryTransport([
            .init(url: url, status: 200, body: body), .init(url: url, status: 404, body: Data("gone".utf8)),
        ])
        let pieces = Mutex<[Data]>([])
        let receiver = BodyReceiver(
            head: { $0.status == 200 }, write: { bytes in pieces.withLock { $0.append(Data(bytes)) } })
        let taken = try await transport.stream(HTTPRequest(url: url), to: receiver)
        #expect(taken.status == 200 && taken.body.isEmpty)
        #expect(pieces.withLock { $0.map(\.count) } == [65_536, 65_536, 18_928])
        #expect(pieces.withLock { $0.reduce(Data(), +) } == body)
        let declined = try await transport.stream(HTTPRequest(url: url), to: receiver)
        #expect(declined.status == 404 && declined.body == Data("gone".utf8))
        #expect(pieces.withLock { $0.count } == 3)
    }
}
