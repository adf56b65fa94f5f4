public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Downloads one address into a local file, resuming a partial one: for files larger than
/// `APIClient` holds in memory (a podcast episode), through an `HTTPStreaming` transport.
///
/// The rules, which a caller (and a user) can rely on:
/// - The body goes to `NAME.part` beside the destination, straight to the file as it arrives;
///   the complete file takes the destination's name, and never replaces a file there.
/// - A `.part` file is resumed with `Range: bytes=N-` (and `If-Range` with the validator of the
///   response it began with). A 206 must continue at N (its `Content-Range`), else
///   `.unexpectedRange`; a 200 is the whole file (the server ignored the range, or the file
///   changed), which starts the part over; a 416 whose `Content-Range: bytes */L` has L = N says
///   the part is already whole, and any other 416 starts it over once.
/// - The length is checked against `Content-Range`'s or `Content-Length`'s, else the length the
///   caller expects (the feed's): a difference is `.lengthMismatch`, and more bytes than
///   announced stop the transfer at once.
/// - On any failure, a cancellation included, the `.part` file stays, to be resumed.
/// - Only http and https, redirects included. The address is recorded on the file
///   (`user.xdg.origin.url`, without a password, where the file system keeps extended
///   attributes), so a partial file is never resumed from another address.
public struct FileDownloader: Sendable {
    private let transport: any HTTPStreaming
    private let maxRedirects: Int
    private let stallTimeout: TimeInterval

    /// - Parameters:
    ///   - transport: sends each hop; redirects are followed here.
    ///   - maxRedirects: redirects followed per request (a loop stops sooner).
    ///   - stallTimeout: the longest wait for a connection or for the next byte.
    public init(transport: any HTTPStreaming, maxRedirects: Int = 10, stallTimeout: TimeInterval = 60) {
        self.transport = transport
        self.maxRedirects = maxRedirects
        self.stallTimeout = stallTimeout
    }

    /// Where the download to `destination` keeps its bytes until it is complete: `NAME.part`.
    public static func partialFile(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(destination.lastPathComponent + ".part")
    }

    /// Whether the file at `file` (complete or `.part`) was downloaded from `url`, as recorded
    /// when its download began; `nil` when it records no address.
    public static func file(_ file: URL, isFrom url: URL) -> Bool? {
        ExtendedAttributes.value(PartialFile.originAttribute, ofFileAt: file).map { $0 == PartialFile.recorded(url) }
    }

    /// The length the server gives for `url` (a HEAD request, redirects followed); `nil` when it
    /// gives none or does not answer HEAD with a 2xx.
    ///
    /// - Throws: what `APIClient.send` throws (no connection, a timeout, `.cancelled`).
    public func length(of url: URL) async throws(NetworkError) -> Int64? {
        let client = APIClient(baseURL: url, transport: transport, maxRedirects: maxRedirects)
        let response = try await client.send(HTTPRequest(method: .head, url: url, timeout: stallTimeout))
        guard response.isSuccess, let text = response.headers["Content-Length"] else { return nil }
        return Int64(text.trimmingCharacters(in: .whitespaces)).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// Downloads `url` to `destination` (see the type's rules), reporting `progress` from the
    /// transport's thread as bytes arrive.
    ///
    /// - Parameters:
    ///   - url: the file, http or https.
    ///   - destination: the file to write; its bytes go to `destination.part` until it is whole.
    ///   - expectedLength: the length the document that linked the file declares, checked only
    ///     when the server announces none.
    ///   - progress: called as bytes arrive, on the transport's thread.
    /// - Throws: `.unsupportedScheme`; `.status` for an answer that is neither the file nor a
    ///   redirect; `.lengthMismatch`, `.unexpectedRange`; `.file` when the partial file cannot be
    ///   written, is another address's, or a file took the destination's name meanwhile; the
    ///   transport's errors (`.cancelled`, `.timedOut`, `.transport`). The `.part` file stays.
    public func download(
        _ url: URL, to destination: URL, expectedLength: Int64? = nil,
        progress: @escaping @Sendable (DownloadProgress) -> Void = { _ in }
    ) async throws(NetworkError) -> DownloadResult {
        if let scheme = NetworkError.unfetchableScheme(url) { throw .unsupportedScheme(scheme, url) }
        let part = try PartialFile(opening: Self.partialFile(for: destination))
        if part.length > 0, let origin = part.origin, origin != PartialFile.recorded(url) {
            throw .file(path: part.url.path, reason: "it is the partial download of another address (\(origin))")
        }
        if part.length == 0 { try part.restart(origin: url, validator: nil) }
        do {
            let resumedFrom = try await transferWhole(url, into: part, expectedLength: expectedLength, progress)
            try part.sync()
            try Self.publish(part.url, as: destination)
            return DownloadResult(destination: destination, bytes: part.length, resumedFrom: resumedFrom)
        } catch {
            // A part that never received a byte (a 404, no connection) is not worth keeping.
            if part.length == 0 { unlink(part.url.path) }
            throw error
        }
    }

    /// Transfers into `part` until it is whole, starting over once when the server cannot serve
    /// its range; returns the length the body began at.
    private func transferWhole(
        _ url: URL, into part: PartialFile, expectedLength: Int64?,
        _ progress: @escaping @Sendable (DownloadProgress) -> Void
    ) async throws(NetworkError) -> Int64 {
        let expected = expectedLength.flatMap { $0 > 0 ? $0 : nil }
        if case .body(let start) = try await transfer(url, into: part, expectedLength: expected, progress: progress) {
            return start
        }
        try part.restart(origin: url, validator: nil)
        guard case .body(let start) = try await transfer(url, into: part, expectedLength: expected, progress: progress)
        else { throw .unexpectedRange("416 for the whole file") }
        return start
    }

    /// How one transfer ended.
    private enum Outcome {
        /// The part is whole; the body began at `start` (0, or the length resumed from).
        case body(start: Int64)
        /// The server cannot serve the range asked for (416), and the part is not whole.
        case startOver
    }

    /// One transfer into `part` from its length on, following redirects.
    private func transfer(
        _ url: URL, into part: PartialFile, expectedLength: Int64?,
        progress: @escaping @Sendable (DownloadProgress) -> Void
    ) async throws(NetworkError) -> Outcome {
        let offset = part.length
        var request = HTTPRequest(url: url, timeout: stallTimeout)
        if offset > 0 {
            request.headers["Range"] = "bytes=\(offset)-"
            if let validator = part.validator { request.headers["If-Range"] = validator }
        }
        let state = TransferState(part: part, origin: url, offset: offset, progress: progress)
        let receiver = BodyReceiver(
            head: { response throws(NetworkError) in try state.begin(response) },
            write: { bytes throws(NetworkError) in try state.write(bytes) })
        var visited: Set<URL> = [url]
        for _ in 0...maxRedirects {
            try Task.checkCancellation(or: .cancelled)
            let response = try await transport.stream(request, to: receiver)
            if let (start, total) = state.began {
                if let announced = total ?? expectedLength, part.length != announced {
                    throw .lengthMismatch(expected: announced, received: part.length)
                }
                return .body(start: start)
            }
            if [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["Location"] {
                guard let next = URL(string: location, relativeTo: request.url)?.absoluteURL else {
                    throw .transport("the server redirected to an invalid URL: \(location)")
                }
                // A remote answer may only lead to another web address (no gopher:, file:, ...).
                if let scheme = NetworkError.unfetchableScheme(next) { throw .unsupportedScheme(scheme, next) }
                guard visited.insert(next).inserted else { throw .tooManyRedirects(next) }
                request.url = next
                continue
            }
            if response.status == 416, offset > 0 {
                let range = response.headers["Content-Range"].flatMap(ContentRange.init)
                guard let range, range.first == nil, range.length == offset else { return .startOver }
                progress(DownloadProgress(bytes: offset, total: offset, resumedFrom: offset))
                return .body(start: offset)
            }
            throw .status(response)
        }
        throw .tooManyRedirects(request.url)
    }

    /// Gives the complete `part` the name `destination`, unless a file has it: a hard link
    /// (which fails when the name is taken) then the part's removal, or where the file system
    /// has no hard links, a rename after checking the name is free.
    private static func publish(_ part: URL, as destination: URL) throws(NetworkError) {
        if link(part.path, destination.path) == 0 {
            unlink(part.path)
            return
        }
        let code = errno
        var status = stat()
        guard code != EEXIST, lstat(destination.path, &status) != 0 else {
            throw .file(
                path: destination.path,
                reason: "a file of that name appeared meanwhile; the download is complete in \(part.lastPathComponent)")
        }
        guard rename(part.path, destination.path) == 0 else { throw PartialFile.failure(destination, errno) }
    }
}

/// What one transfer learnt from the response head, shared by the transport's thread (which
/// calls the receiver) and the task that waits for it.
private final class TransferState: Sendable {
    private let part: PartialFile
    private let origin: URL
    private let offset: Int64
    private let progress: @Sendable (DownloadProgress) -> Void
    /// Once the body began: where (0, or the offset resumed from) and the announced length.
    private let state = Mutex<(start: Int64, total: Int64?)?>(nil)

    init(part: PartialFile, origin: URL, offset: Int64, progress: @escaping @Sendable (DownloadProgress) -> Void) {
        self.part = part
        self.origin = origin
        self.offset = offset
        self.progress = progress
    }

    var began: (start: Int64, total: Int64?)? { state.withLock { $0 } }

    /// Takes the body of a 200 (the whole file: the part starts over) or of a 206 that continues
    /// the part; leaves any other answer's body in the response.
    func begin(_ response: HTTPResponse) throws(NetworkError) -> Bool {
        let start: Int64
        let total: Int64?
        switch response.status {
        case 200:
            try part.restart(origin: origin, validator: Self.validator(response))
            start = 0
            total = response.headers["Content-Length"].flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        case 206:
            let text = response.headers["Content-Range"]
            guard let range = text.flatMap(ContentRange.init), range.first == offset else {
                throw .unexpectedRange(text ?? "none")
            }
            if offset == 0 { try part.restart(origin: origin, validator: Self.validator(response)) }
            start = offset
            total = range.length
        default:
            return false
        }
        state.withLock { $0 = (start, total) }
        progress(DownloadProgress(bytes: start, total: total, resumedFrom: start))
        return true
    }

    /// Appends a piece of the body; more than the announced length stops the transfer.
    func write(_ bytes: UnsafeRawBufferPointer) throws(NetworkError) {
        let length = try part.append(bytes)
        guard let (start, total) = began else { return }
        if let total, length > total { throw .lengthMismatch(expected: total, received: length) }
        progress(DownloadProgress(bytes: length, total: total, resumedFrom: start))
    }

    /// What a later `If-Range` may carry: a strong `ETag`, else `Last-Modified`.
    private static func validator(_ response: HTTPResponse) -> String? {
        if let etag = response.headers["ETag"], !etag.hasPrefix("W/") { return etag }
        return response.headers["Last-Modified"]
    }
}
