import CalDAVTestSupport
import DefaultTransport
import Foundation
import Models
import Networking
import Testing

/// The Radicale the chore-sharing tests run against: started and stopped by the test, reached
/// through the project's own transport with WebDAV methods.
@Suite("Radicale on 127.0.0.1", .timeLimit(.minutes(10)))
struct RadicaleHarnessTests {
    @Test(
        "a calendar collection answers PROPFIND with its VTODO support, an address book without; a wrong password gets 401"
    )
    func propfind() async throws {
        try await withRadicale { server in
            let calendar = try server.makeCalendar("chores")
            let contacts = try server.makeAddressBook("contacts")
            let transport = makeDefaultTransport()
            let body = Data(
                """
                <?xml version="1.0" encoding="utf-8"?>
                <propfind xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
                <prop><resourcetype/><C:supported-calendar-component-set/></prop></propfind>
                """.utf8)
            func propfind(_ url: URL, password: String) async throws -> HTTPResponse {
                try await transport.send(
                    HTTPRequest(
                        method: "PROPFIND", url: url,
                        headers: [
                            "Depth": "0", "Content-Type": "application/xml; charset=utf-8",
                            "Authorization": Token.basic(user: server.user, password: password).authorizationHeader,
                        ], body: body))
            }
            let answer = try await propfind(calendar, password: server.password)
            #expect(answer.status == 207)
            let text = String(decoding: answer.body, as: UTF8.self)
            #expect(text.contains("calendar") && text.contains("VTODO"))
            let other = try await propfind(contacts, password: server.password)
            #expect(other.status == 207)
            #expect(!String(decoding: other.body, as: UTF8.self).contains("VTODO"))
            #expect(try await propfind(calendar, password: "wrong").status == 401)
        }
    }
}
