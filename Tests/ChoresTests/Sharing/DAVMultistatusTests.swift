import CalDAVTestSupport
import DefaultTransport
import Foundation
import Markup
import Models
import Networking
import Testing

@testable import Chores

/// WebDAV multistatus bodies read with the project's XML reader: real Radicale answers, and
/// documents a hostile server could send.
@Suite("WebDAV multistatus")
struct DAVMultistatusTests {
    @Test(
        "a sync report: hrefs as the server wrote them, ETags and calendar data per member, a removed member's 404, the token"
    )
    func syncReport() throws {
        let body = Data(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav">
              <d:response>
                <d:href>/alice/chores/bins%20day.ics</d:href>
                <d:propstat>
                  <d:prop><d:getetag>"e1"</d:getetag><cal:calendar-data><![CDATA[BEGIN:VCALENDAR\r
            END:VCALENDAR\r
            ]]></cal:calendar-data></d:prop>
                  <d:status>HTTP/1.1 200 OK</d:status>
                </d:propstat>
                <d:propstat><d:prop><d:displayname/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>
              </d:response>
              <d:response><d:href>/alice/chores/gone.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>
              <d:sync-token>http://radicale.org/ns/sync/abc&amp;1</d:sync-token>
            </d:multistatus>
            """.utf8)
        let status = try DAVMultistatus(body)
        #expect(status.syncToken == "http://radicale.org/ns/sync/abc&1")
        #expect(status.responses.map(\.href) == ["/alice/chores/bins%20day.ics", "/alice/chores/gone.ics"])
        #expect(status.responses[0].property(DAVMultistatus.dav, "getetag")?.text == "\"e1\"")
        #expect(status.responses[0].property(DAVMultistatus.dav, "displayname") == nil)
        #expect(
            status.responses[0].property(DAVMultistatus.caldav, "calendar-data")?.text
                == "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
        #expect(status.responses[1].status == 404)
    }

    @Test("a response whose href is missing or blank is left out; the others read (found by the fuzzer)")
    func blankHrefs() throws {
        let body = Data(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:">
              <d:response><d:href>


            </d:href><d:status>HTTP/1.1 200 OK</d:status></d:response>
              <d:response><d:href></d:href><d:status>HTTP/1.1 200 OK</d:status></d:response>
              <d:response><d:status>HTTP/1.1 200 OK</d:status></d:response>
              <d:response><d:href>/alice/chores/a.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status></d:response>
            </d:multistatus>
            """.utf8)
        let status = try DAVMultistatus(body)
        #expect(status.responses.map(\.href) == ["/alice/chores/a.ics"])
        #expect(status.responses.first?.status == 404)
    }

    @Test("Radicale's own PROPFIND answer reads: a calendar's resource type and its VTODO support")
    func radicaleAnswer() async throws {
        try await withRadicale { server in
            let calendar = try server.makeCalendar("chores")
            let answer = try await makeDefaultTransport().send(
                HTTPRequest(
                    method: "PROPFIND", url: calendar,
                    headers: [
                        "Depth": "0", "Content-Type": "application/xml; charset=utf-8",
                        "Authorization": Token.basic(user: server.user, password: server.password).authorizationHeader,
                    ],
                    body: Data(
                        """
                        <propfind xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
                        <prop><resourcetype/><C:supported-calendar-component-set/><sync-token/></prop></propfind>
                        """.utf8)))
            #expect(answer.status == 207)
            let status = try DAVMultistatus(answer.body)
            let response = try #require(status.responses.first)
            #expect(response.href == "/alice/chores/")
            let types = response.property(DAVMultistatus.dav, "resourcetype")?.children.map(\.name) ?? []
            #expect(types.contains("calendar") && types.contains("collection"))
            let components = response.property(DAVMultistatus.caldav, "supported-calendar-component-set")
            #expect(components?.children.count == 1)
            #expect(response.property(DAVMultistatus.dav, "sync-token")?.text.isEmpty == false)
        }
    }

    @Test(
        "hostile or broken documents are refused, never expanded or fetched",
        arguments: [
            // External entity (XXE): never resolved; the reference is an error.
            """
            <?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>
            <multistatus xmlns="DAV:"><response><href>&x;</href></response></multistatus>
            """,
            // Billion laughs: the document's own entities are never expanded.
            """
            <?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
            <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><multistatus xmlns="DAV:"><sync-token>&c;</sync-token></multistatus>
            """,
            "<multistatus xmlns=\"DAV:\"><response><href>/a</href></multistatus>",
            "<html><body>Proxy error</body></html>",
            "",
            "not xml at all",
        ])
    func refused(document: String) {
        #expect(throws: XMLTreeError.self) { try DAVMultistatus(Data(document.utf8)) }
    }

    @Test("depth and element bombs stop at the limits")
    func limits() {
        let deep = String(repeating: "<a>", count: 200) + String(repeating: "</a>", count: 200)
        #expect(throws: XMLTreeError.tooDeep) { try XMLTree.read(Data(deep.utf8)) }
        let wide =
            "<multistatus xmlns=\"DAV:\">" + String(repeating: "<x/>", count: XMLTree.maximumElements + 1)
            + "</multistatus>"
        #expect(throws: XMLTreeError.tooManyElements) { try XMLTree.read(Data(wide.utf8)) }
    }
}
