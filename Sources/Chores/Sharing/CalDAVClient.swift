package import Foundation
import Markup
package import Networking

/// Why talking to a CalDAV collection failed, in words a user can act on. The password never
/// appears in any of them.
package enum CalDAVError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A password would cross the network in clear text.
    case insecure(URL)
    case noPassword(user: String?, host: String)
    case unauthorized(user: String)
    case forbidden(URL)
    case notFound(URL)
    case notACalendar(URL)
    case noTodos(URL)
    case insufficientStorage
    case redirected(URL)
    case server(status: Int)
    case unreachable(String)
    case malformed(String)

    package var description: String {
        switch self {
        case .insecure(let url):
            "\(url.absoluteString) is not https: a password goes only over https, or http to this machine"
        case .noPassword(let user, let host):
            "no password for \(user.map { "\($0) at " } ?? "")\(host): add it to ~/.netrc or set TIDINGS_CALDAV_PASSWORD"
        case .unauthorized(let user): "the server refused the password of \(user) (HTTP 401)"
        case .forbidden(let url): "the server forbids access to \(url.absoluteString) (HTTP 403)"
        case .notFound(let url): "there is no collection at \(url.absoluteString) (HTTP 404)"
        case .notACalendar(let url): "\(url.absoluteString) is not a calendar collection"
        case .noTodos(let url): "the calendar at \(url.absoluteString) does not accept tasks (VTODO)"
        case .insufficientStorage: "the server is out of space (HTTP 507); nothing was lost, try again later"
        case .redirected(let url):
            "the server redirects to \(url.absoluteString): set up the collection's own URL (redirects are not followed)"
        case .server(let status): "the server answered HTTP \(status)"
        case .unreachable(let reason): "cannot reach the server: \(reason)"
        case .malformed(let reason): "the server's answer could not be read: \(reason)"
        }
    }
}

/// What a collection says about itself.
package struct CalDAVCollection: Sendable, Equatable {
    package var displayName: String?
    /// The RFC 6578 sync token, when the server supports `sync-collection`.
    package var syncToken: String?
}

/// Talks WebDAV to one calendar collection through Networking's `APIClient`, every request
/// signed by an `Authenticator` whose token is the user's Basic credentials. On a 401 the
/// credentials are read again (`~/.netrc` may have changed) and the request sent once more.
package struct CalDAVClient: Sendable {
    package let collection: URL
    package let user: String
    /// The collection's path in the canonical form of `DAVHref`, with its final slash: what
    /// every href of a listing is compared with.
    let collectionPath: String
    private let client: AuthenticatedClient

    /// The path of `collection` in the canonical form of `DAVHref`, with its final slash.
    package static func path(of collection: URL) -> String {
        let path = DAVHref.canonical(collection.path(percentEncoded: true))
        return path.hasSuffix("/") ? path : path + "/"
    }

    /// A client for `collection`, or why there can be none: a password that would cross the
    /// network in clear text, or no password at all. `credentials` is read now and on every
    /// 401.
    package init(
        collection: URL, transport: any HTTPTransport,
        credentials: @escaping @Sendable () -> CalDAVCredentials?
    ) throws(CalDAVError) {
        guard CalDAVCredentials.mayCarryCredentials(collection) else { throw .insecure(collection) }
        guard let found = credentials() else { throw .noPassword(user: nil, host: collection.host ?? "") }
        self.collection = collection
        collectionPath = Self.path(of: collection)
        user = found.user
        let authenticator = Authenticator(store: InMemoryTokenStore(.basic(user: found.user, password: found.password)))
        {
            token throws(NetworkError) in
            guard let again = credentials() else { return token }
            return .basic(user: again.user, password: again.password)
        }
        client = AuthenticatedClient(
            client: APIClient(baseURL: collection, transport: transport, retry: .never, maxRedirects: 0),
            authenticator: authenticator)
    }

    /// Checks that the collection is a calendar that takes tasks, and reads its name and sync
    /// token (PROPFIND, depth 0).
    package func checkCollection() async throws(CalDAVError) -> CalDAVCollection {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
              <d:prop><d:resourcetype/><d:displayname/><d:sync-token/><c:supported-calendar-component-set/></d:prop>
            </d:propfind>
            """
        let status = try await multistatus(method: "PROPFIND", url: collection, depth: "0", body: body)
        guard
            let response = status.responses.first(where: { isCollection($0.href) })
                ?? status.responses.first
        else { throw .malformed("the PROPFIND answer names no resource") }
        let types = response.property(DAVMultistatus.dav, "resourcetype")?.children ?? []
        guard types.contains(where: { $0.namespace == DAVMultistatus.caldav && $0.name == "calendar" }) else {
            throw .notACalendar(collection)
        }
        // No supported-calendar-component-set means every component (RFC 4791 §5.2.3).
        if let components = response.property(DAVMultistatus.caldav, "supported-calendar-component-set"),
            !components.children.isEmpty,
            !components.children.contains(where: { Self.componentName($0) == "VTODO" })
        {
            throw .noTodos(collection)
        }
        return CalDAVCollection(
            displayName: response.property(DAVMultistatus.dav, "displayname")?.text.trimmedWhitespace.nonEmpty,
            syncToken: response.property(DAVMultistatus.dav, "sync-token")?.text.trimmedWhitespace.nonEmpty)
    }

    /// Sends a WebDAV request that answers 207 and reads the multistatus.
    func multistatus(method: String, url: URL, depth: String, body: String) async throws(CalDAVError)
        -> DAVMultistatus
    {
        let response = try await send(
            HTTPRequest(
                method: HTTPMethod(rawValue: method), url: url,
                headers: ["Depth": depth, "Content-Type": "application/xml; charset=utf-8"], body: Data(body.utf8)))
        guard response.status == 207 else { throw error(for: response.status, url: url) }
        do {
            return try DAVMultistatus(response.body)
        } catch {
            throw .malformed(error.description)
        }
    }

    /// Sends a signed request; network failures become `.unreachable`.
    func send(_ request: HTTPRequest) async throws(CalDAVError) -> HTTPResponse {
        do {
            return try await client.send(request)
        } catch .loginRequired {
            throw .noPassword(user: user, host: collection.host ?? "")
        } catch .refreshLoop {
            throw .unauthorized(user: user)
        } catch .tooManyRedirects(let target) {
            // WebDAV writes are never followed elsewhere: the credentials and the chore would go
            // where the collection's owner did not send them.
            throw .redirected(target)
        } catch {
            throw .unreachable(error.errorDescription ?? "\(error)")
        }
    }

    func error(for status: Int, url: URL) -> CalDAVError {
        switch status {
        case 401: .unauthorized(user: user)
        case 403: .forbidden(url)
        case 404: .notFound(url)
        case 507: .insufficientStorage
        default: .server(status: status)
        }
    }

    /// `<c:comp name="VTODO"/>` → `VTODO` (the name is an attribute; servers also write it as text).
    private static func componentName(_ element: XMLTree.Element) -> String? {
        element.attributes["name"]?.uppercased() ?? element.text.trimmedWhitespace.uppercased().nonEmpty
    }

    /// Whether `href` names the collection itself (with or without its final slash).
    func isCollection(_ href: String) -> Bool {
        let trim = { (text: String) in text.hasSuffix("/") ? String(text.dropLast()) : text }
        return trim(DAVHref.path(of: href)) == trim(collectionPath)
    }
}
