import Foundation
import Markup

/// A WebDAV `207 Multi-Status` body (RFC 4918 §13, RFC 6578 for `sync-token`): one response
/// per resource, each with the properties found and the status of those that were not.
struct DAVMultistatus: Sendable, Equatable {
    static let dav = "DAV:"
    static let caldav = "urn:ietf:params:xml:ns:caldav"

    /// One resource.
    struct Response: Sendable, Equatable {
        /// The `href` as the server wrote it (see `DAVHref` for comparing it).
        var href: String
        /// The response's own status (a removed member in a sync report is 404); `nil` when
        /// the statuses are per property.
        var status: Int?
        /// The properties reported with status 200, by namespace and name.
        var properties: [XMLTree.Element] = []

        /// The property named `name` in `namespace` (reported with 200).
        func property(_ namespace: String, _ name: String) -> XMLTree.Element? {
            properties.first { $0.namespace == namespace && $0.name == name }
        }
    }

    var responses: [Response]
    /// The collection's new `sync-token` (a `sync-collection` report).
    var syncToken: String?

    /// Reads a multistatus body.
    ///
    /// - Throws: `XMLTreeError` for XML that is not well formed or past the limits;
    ///   `.malformed` for a root that is not `DAV:multistatus`.
    init(_ data: Data) throws(XMLTreeError) {
        let root = try XMLTree.read(data)
        guard root.namespace == Self.dav, root.name == "multistatus" else {
            throw .malformed(line: 1, message: "the root is <\(root.name)>, not a DAV multistatus")
        }
        syncToken = root.childText(Self.dav, "sync-token")
        responses = root.children(Self.dav, "response").compactMap { response in
            // A response names its resource (RFC 4918): one without an href, or with a blank
            // one, names nothing this client could fetch, change or compare, and is left out.
            guard let href = response.childText(Self.dav, "href"), !href.trimmedWhitespace.isEmpty else { return nil }
            var entry = Response(href: href.trimmedWhitespace)
            entry.status = response.childText(Self.dav, "status").flatMap(Self.status)
            for propstat in response.children(Self.dav, "propstat")
            where propstat.childText(Self.dav, "status").flatMap(Self.status) == 200 {
                entry.properties += propstat.child(Self.dav, "prop")?.children ?? []
            }
            return entry
        }
    }

    /// `HTTP/1.1 404 Not Found` → 404.
    static func status(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        guard parts.count >= 2 else { return nil }
        return Int(parts[1])
    }
}
