import Foundation
import Markup
import Networking

/// A calendar object on the server: where it is, its ETag, and (when fetched) its text.
package struct CalDAVObject: Sendable, Equatable {
    package var href: String
    package var etag: String?
    package var icalendar: String?
}

/// What changed in a collection since a sync token (RFC 6578).
package struct CalDAVChanges: Sendable, Equatable {
    /// Members added or changed, with their ETags.
    package var changed: [CalDAVObject]
    /// The hrefs of members removed.
    package var removed: [String]
    /// The token to ask with next time.
    package var token: String?
    /// Whether the server sent only part of the changes (RFC 6578 §3.6: 507 on the collection
    /// itself); asking again with `token` gives the rest.
    package var truncated = false

    package init(changed: [CalDAVObject], removed: [String], token: String?, truncated: Bool = false) {
        self.changed = changed
        self.removed = removed
        self.token = token
        self.truncated = truncated
    }
}

/// How a conditional write ended.
package enum CalDAVWrite: Sendable, Equatable {
    /// Stored; the new ETag when the server gave one.
    case stored(etag: String?)
    /// Someone else changed (or created, or removed) the object first (HTTP 412).
    case conflict
}

extension CalDAVClient {
    /// The members changed and removed since `token` (every member for `nil`): one
    /// `sync-collection` REPORT. `nil` when the server does not take the token or the report
    /// (see `refusesToken`, and 400 or 501 for no support at all): list the members instead.
    package func changes(since token: String?) async throws(CalDAVError) -> CalDAVChanges? {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:sync-collection xmlns:d="DAV:">
              <d:sync-token>\(MarkupEscaping.escape(token ?? ""))</d:sync-token>
              <d:sync-level>1</d:sync-level>
              <d:prop><d:getetag/></d:prop>
            </d:sync-collection>
            """
        let response = try await send(
            HTTPRequest(
                method: HTTPMethod(rawValue: "REPORT"), url: collection,
                headers: ["Depth": "0", "Content-Type": "application/xml; charset=utf-8"], body: Data(body.utf8)))
        guard response.status == 207 else {
            if Self.refusesToken(status: response.status, body: response.body) || [400, 501].contains(response.status) {
                return nil
            }
            throw error(for: response.status, url: collection)
        }
        let status: DAVMultistatus
        do {
            status = try DAVMultistatus(response.body)
        } catch {
            throw .malformed(error.description)
        }
        var changes = CalDAVChanges(changed: [], removed: [], token: status.syncToken)
        for response in status.responses where isCollection(response.href) && response.status == 507 {
            changes.truncated = true
        }
        for response in status.responses where !isCollection(response.href) {
            if response.status == 404 {
                changes.removed.append(response.href)
            } else {
                changes.changed.append(
                    CalDAVObject(href: response.href, etag: Self.etag(response)))
            }
        }
        return changes
    }

    /// Whether a `sync-collection` answer refuses the token (RFC 6578 §3.2, the
    /// `DAV:valid-sync-token` precondition): servers that forgot it (restored from a backup,
    /// the collection recreated) answer 403, 409 or 412, and some another 4xx whose body names
    /// the precondition. The caller lists the whole collection instead; a 401 or 404 is no
    /// such refusal.
    static func refusesToken(status: Int, body: Data) -> Bool {
        if [403, 409, 412].contains(status) { return true }
        guard (400..<500).contains(status), ![401, 404, 407, 408, 429].contains(status) else { return false }
        return String(decoding: body.prefix(65_536), as: UTF8.self).contains("valid-sync-token")
    }

    /// Every member with its ETag (PROPFIND, depth 1): the fallback where `sync-collection`
    /// is not supported.
    package func members() async throws(CalDAVError) -> [CalDAVObject] {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:resourcetype/></d:prop></d:propfind>
            """
        let status = try await multistatus(method: "PROPFIND", url: collection, depth: "1", body: body)
        return status.responses.compactMap { response in
            guard !isCollection(response.href) else { return nil }
            return CalDAVObject(href: response.href, etag: Self.etag(response))
        }
    }

    /// The objects at `hrefs`, with their text and ETag: one `calendar-multiget` REPORT
    /// (RFC 4791 §7.9). An href the server no longer has is left out.
    package func fetch(_ hrefs: [String]) async throws(CalDAVError) -> [CalDAVObject] {
        guard !hrefs.isEmpty else { return [] }
        let list = hrefs.map { "<d:href>\(MarkupEscaping.escape(DAVHref.path(of: $0)))</d:href>" }.joined()
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
              <d:prop><d:getetag/><c:calendar-data/></d:prop>\(list)
            </c:calendar-multiget>
            """
        let status = try await multistatus(method: "REPORT", url: collection, depth: "1", body: body)
        return status.responses.compactMap { response in
            guard let data = response.property(DAVMultistatus.caldav, "calendar-data")?.text else { return nil }
            return CalDAVObject(
                href: response.href, etag: Self.etag(response), icalendar: data)
        }
    }

    /// Writes `icalendar` at `href`: only if it is still at `etag`, or, without one, only if
    /// nothing is there yet (`If-None-Match: *`). Never overwrites a change it has not seen.
    package func put(_ icalendar: String, at href: String, ifMatch etag: String?) async throws(CalDAVError)
        -> CalDAVWrite
    {
        let url = try objectURL(href)
        let body = Data(icalendar.utf8)
        let headers: HTTPHeaders = ["Content-Type": "text/calendar; charset=utf-8"]
        let response = try await conditionally(href: href, etag: etag) { (precondition) throws(CalDAVError) in
            var request = HTTPRequest(method: .put, url: url, headers: headers, body: body)
            for (name, value) in precondition { request.headers[name] = value }
            return try await send(request)
        }
        switch response.status {
        case 200..<300: return .stored(etag: response.headers["ETag"])
        case 412: return .conflict
        default: throw error(for: response.status, url: url)
        }
    }

    /// Removes the object at `href` if it is still at `etag`. One that is already gone counts
    /// as removed.
    package func delete(at href: String, ifMatch etag: String?) async throws(CalDAVError) -> CalDAVWrite {
        let url = try objectURL(href)
        let response = try await conditionally(href: href, etag: etag, creating: false) {
            (precondition) throws(CalDAVError) in
            var request = HTTPRequest(method: .delete, url: url)
            for (name, value) in precondition { request.headers[name] = value }
            return try await send(request)
        }
        switch response.status {
        case 200..<300, 404, 410: return .stored(etag: nil)
        case 412: return .conflict
        default: throw error(for: response.status, url: url)
        }
    }

    /// Sends a write with its precondition: `If-Match` with `etag`, or `If-None-Match: *` to
    /// create (unless `creating` is false, for a deletion).
    ///
    /// A weak tag (`W/"x"`) never satisfies `If-Match`, which compares strongly (RFC 9110
    /// §13.1.1), so a write at a weak tag is sent at its opaque value (`"x"`: a compressing
    /// proxy or Apache weakens a strong tag the server still takes); when the server refuses
    /// that, the object is read, and only if the server still gives it the same weak tag is the
    /// write sent without a precondition. Otherwise the answer is the 412 of a change made
    /// there.
    private func conditionally(
        href: String, etag: String?, creating: Bool = true,
        _ send: (HTTPHeaders) async throws(CalDAVError) -> HTTPResponse
    ) async throws(CalDAVError) -> HTTPResponse {
        guard let etag else { return try await send(creating ? ["If-None-Match": "*"] : [:]) }
        guard EntityTag.isWeak(etag) else { return try await send(["If-Match": etag]) }
        let first = try await send(["If-Match": EntityTag.opaque(etag)])
        guard first.status == 412 else { return first }
        let path = DAVHref.path(of: href)
        guard let current = try await fetch([href]).first(where: { DAVHref.path(of: $0.href) == path }),
            let now = current.etag, EntityTag.weaklyEqual(now, etag)
        else { return first }
        return try await send([:])
    }

    /// A response's `getetag`, without the white space around it; `nil` when there is none.
    static func etag(_ response: DAVMultistatus.Response) -> String? {
        response.property(DAVMultistatus.dav, "getetag")?.text.trimmedWhitespace.nonEmpty
    }

    /// The href of a new object named after its UID, in the collection (in the canonical form
    /// of `DAVHref`).
    package func href(forUID uid: String) -> String {
        let name =
            uid.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) || "-_.@".unicodeScalars.contains($0)
            }
            ? uid : UUID().uuidString
        return DAVHref.canonical(collectionPath + name + ".ics")
    }

    /// Whether `href` names an object in the collection (on the same server, below its path).
    package func contains(_ href: String) -> Bool {
        (try? objectURL(href)) != nil
    }

    /// Whether `path`, the path of an object as this home stored it (checked against its
    /// collection, as `contains(_:)` checks, when it arrived), lies below this collection's path:
    /// which collection a stored object belongs to. A prefix test: parsing each stored path as a
    /// URL again took a third of a quiet sync of 2,000 chores.
    package func holds(storedPath path: String) -> Bool {
        path.count > collectionPath.count && path.hasPrefix(collectionPath)
    }

    /// The absolute URL of `href`, which must lie in the collection on the same server: a
    /// hostile answer cannot send writes elsewhere.
    private func objectURL(_ href: String) throws(CalDAVError) -> URL {
        let outside = CalDAVError.malformed("the object \(href) is outside the collection")
        let sameServer = { (url: URL) in
            url.scheme?.lowercased() == collection.scheme?.lowercased()
                && url.host?.lowercased() == collection.host?.lowercased() && url.port == collection.port
                && url.user == collection.user && url.password == collection.password
        }
        // An href may be a whole URL (RFC 4918 allows it): then it is read as one, never as a
        // path below the collection, and must name this server.
        if href.range(of: "://") != nil {
            guard let url = URL(string: href), sameServer(url) else { throw outside }
        }
        // Dot segments resolved first: `/alice/chores/../x.ics` is not in `/alice/chores/`.
        // Nor is a path whose dot segments only a decoding server would see (`..%2F..%2Fx`).
        // Whatever the href's spelling, what it resolves to must be on this server: a
        // network-path reference (`//other.host/alice/chores/x.ics`) keeps the collection's
        // path and scheme but names another host, which would get the chore and the password.
        let path = DAVHref.path(of: href)
        guard let url = URL(string: path, relativeTo: collection)?.absoluteURL.standardized, sameServer(url),
            DAVHref.canonical(url.path(percentEncoded: true)).hasPrefix(collectionPath),
            !url.path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." })
        else { throw outside }
        return url
    }
}
