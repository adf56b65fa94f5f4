public import Foundation
public import Models
import Networking

/// Why a feed operation failed, in words a user can act on.
public enum FeedError: Error, Sendable, Hashable, LocalizedError {
    /// The text is not a URL or path that can be fetched.
    case invalidURL(String)
    /// The server answered 410 Gone: the feed was retired and is no longer polled.
    case gone
    /// The server asked to slow down (429/503); `until` is when it may be asked again.
    case rateLimited(status: Int, until: Date?)
    /// Another failing HTTP status.
    case http(status: Int)
    /// Nothing usable came back (connection refused, DNS, timeout, TLS).
    case network(String)
    /// A local file could not be read.
    case file(String)
    /// The document is not a feed, or is damaged beyond recovery.
    case parse(FeedParseError)
    /// A file given as an OPML subscription list is not one (not XML, another document).
    case opml(FeedParseError)
    /// The page is HTML and no feed could be read from it: it links to none (`links` is empty),
    /// or the feeds it links to (`links`) could not be read; the common paths failed too.
    case noFeedFound(URL, links: [URL] = [])
    /// The URL is already subscribed.
    case alreadySubscribed(id: Int64, title: String)
    /// The feed belongs to a feed account, whose server keeps the subscriptions.
    case managedByAccount(feedID: Int64, accountID: Int64)
    /// No feed, article or task has this id.
    case notFound(entity: String, id: Int64)
    /// The local store could not be read or refused the change (a full disk, a read-only or
    /// damaged file).
    case storage(StorageError)
    case cancelled
    /// A tag that cannot be one, with the reason (`FeedTag.problem(with:)`).
    case invalidTag(String)
    /// A rule that cannot be one: no word, or a regular expression that does not compile.
    case invalidRule(String)

    /// A storage failure as the user sees it: a missing record stays `.notFound`, anything else
    /// is `.storage`, typed.
    init(_ error: StorageError) {
        if case .notFound(let entity, let id) = error {
            self = .notFound(entity: entity, id: id)
        } else {
            self = .storage(error)
        }
    }

    init(_ error: NetworkError) {
        switch error {
        case .cancelled: self = .cancelled
        case .status(let response): self = .http(status: response.status)
        case .invalidURL(let text): self = .invalidURL(text)
        default: self = .network(error.errorDescription ?? "\(error)")
        }
    }

    /// One line for the user.
    public var errorDescription: String? {
        switch self {
        case .invalidURL(let text): "not a URL or file that can be fetched: \(text)"
        case .gone: "the feed is gone (HTTP 410); it is no longer polled"
        case .rateLimited(let status, let until):
            "the server asked to slow down (HTTP \(status))"
                + (until.map { "; next try after \(ISO8601DateFormatter().string(from: $0))" } ?? "")
        case .http(let status): "the server answered HTTP \(status)"
        case .network(let reason): reason
        case .file(let reason): reason
        case .parse(let error): error.errorDescription ?? "\(error)"
        case .opml(.notAFeed(let reason)), .opml(.malformed(let reason)): "not an OPML subscription list: \(reason)"
        case .noFeedFound(let url, let links) where links.isEmpty:
            "no feed found at \(url.absoluteString) (the page links to none)"
        case .noFeedFound(let url, let links):
            "no feed found at \(url.absoluteString): the page links to "
                + links.map(\.absoluteString).joined(separator: ", ")
                + (links.count == 1 ? ", which could not be read as a feed" : ", none of which could be read as a feed")
        case .alreadySubscribed(let id, let title):
            "already subscribed: feed #\(id) \"\(title.count > 200 ? title.prefix(199) + "…" : title)\""
        case .managedByAccount(let feed, let account):
            "feed #\(feed) comes from account #\(account), whose server keeps its subscriptions: change them there"
        case .notFound(let entity, let id): "no \(entity) #\(id)"
        case .storage(let error): error.errorDescription ?? "\(error)"
        case .cancelled: "cancelled"
        case .invalidTag(let reason): reason
        case .invalidRule(let reason): reason
        }
    }
}

extension FeedError {
    /// A file that could not be read or written, in words: `cannot read /tmp: it is a directory`.
    public static func file(_ action: String, _ path: String, _ error: any Error) -> FeedError {
        .file("\(action) \(path): \(fileReason(error, path: path))")
    }

    private static func fileReason(_ error: any Error, path: String) -> String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return "it is a directory"
        }
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        switch nsError.code {
        case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
        case NSFileReadNoPermissionError, NSFileWriteNoPermissionError: return "permission denied"
        case NSFileWriteOutOfSpaceError: return "no space left on the device"
        default: return nsError.localizedDescription
        }
    }
}
