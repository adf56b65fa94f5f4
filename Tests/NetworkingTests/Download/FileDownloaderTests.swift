import DefaultTransport
import Foundation
import Networking
import NetworkingTestSupport
import Testing

/// A download site (a directory the download server serves, holding `episode.mp3`) and a
/// directory to download into, both removed afterwards.
private struct DownloadSite {
    let base: URL
    let site: URL
    let downloads: URL
    /// `episode.mp3`'s bytes: 300 KB in a pattern that a shifted or repeated part would break.
    static let episode = Data((0..<300_000).map { UInt8(truncatingIfNeeded: ($0 * 31 + $0 / 251) % 253) })

    var destination: URL { downloads.appendingPathComponent("episode.mp3") }
    var part: URL { FileDownloader.partialFile(for: destination) }

    func url(_ mode: String, _ name: String = "episode.mp3") -> URL {
        base.appendingPathComponent(mode).appendingPathComponent(name)
    }

    func requests() throws -> [SeenDownloadRequest] { try SeenDownloadRequest.all(in: site) }

    static func run(_ body: (DownloadSite) async throws -> Void) async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-download-\(UUID())")
        let site = root.appendingPathComponent("site")
        let downloads = root.appendingPathComponent("downloads")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try episode.write(to: site.appendingPathComponent("episode.mp3"))
        try await withDownloadServer(serving: site) { base in
            try await body(DownloadSite(base: base, site: site, downloads: downloads))
        }
    }
}

/// The streaming transport of this platform (libcurl's, on Linux).
private func streamingTransport() throws -> any HTTPStreaming {
    try #require(makeDefaultStreamingTransport(), "no streaming transport on this platform")
}

/// The `NetworkError` `body` throws (`nil` when it returns).
private func downloadError(_ body: () async throws -> DownloadResult) async -> NetworkError? {
    do {
        _ = try await body()
        return nil
    } catch let error as NetworkError {
        return error
    } catch {
        Issue.record("not a NetworkError: \(error)")
        return nil
    }
}

@Suite(
    "FileDownloader against a server with ranges", .serialized,
    .enabled(if: makeDefaultStreamingTransport() != nil, "no streaming transport on this platform"))
struct FileDownloaderTests {
    @Test("a whole download: the bytes as served, under its name, no .part left, the origin recorded")
    func whole() async throws {
        try await DownloadSite.run { site in
            let progress = Watched<[DownloadProgress]>([])
            let result = try await FileDownloader(transport: try streamingTransport()).download(
                site.url("files"), to: site.destination, progress: { step in progress.update { $0.append(step) } })
            #expect(result == DownloadResult(destination: site.destination, bytes: 300_000, resumedFrom: 0))
            #expect(try Data(contentsOf: site.destination) == DownloadSite.episode)
            #expect(!FileManager.default.fileExists(atPath: site.part.path))
            #expect(try site.requests().map(\.range) == [nil])
            let steps = progress.value
            #expect(steps.first == DownloadProgress(bytes: 0, total: 300_000, resumedFrom: 0))
            #expect(steps.last == DownloadProgress(bytes: 300_000, total: 300_000, resumedFrom: 0))
            #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.bytes <= $1.bytes })
            #expect(FileDownloader.file(site.destination, isFrom: site.url("files")) == true)
            #expect(FileDownloader.file(site.destination, isFrom: site.url("files", "other.mp3")) == false)
        }
    }

    @Test("a .part file is resumed with a Range request, and the result is the file byte for byte")
    func resumes() async throws {
        try await DownloadSite.run { site in
            try DownloadSite.episode.prefix(120_000).write(to: site.part)
            let result = try await FileDownloader(transport: try streamingTransport()).download(
                site.url("files"), to: site.destination)
            #expect(result.resumedFrom == 120_000 && result.bytes == 300_000)
            #expect(try Data(contentsOf: site.destination) == DownloadSite.episode)
            #expect(try site.requests().map(\.range) == ["bytes=120000-"])
        }
    }

    @Test("a server that ignores the range sends the whole file: the part starts over, not appended to")
    func serverIgnoresRange() async throws {
        try await DownloadSite.run { site in
            try Data(repeating: 0xEE, count: 50_000).write(to: site.part)
            let result = try await FileDownloader(transport: try streamingTransport()).download(
                site.url("norange"), to: site.destination)
            #expect(result.resumedFrom == 0 && result.bytes == 300_000)
            #expect(try Data(contentsOf: site.destination) == DownloadSite.episode)
            #expect(try site.requests().map(\.range) == ["bytes=50000-"])
        }
    }

    @Test("a 416 for a part that is already whole completes it; for a part longer than the file, starts over")
    func rangeNotSatisfiable() async throws {
        try await DownloadSite.run { site in
            try DownloadSite.episode.write(to: site.part)
            let whole = try await FileDownloader(transport: try streamingTransport()).download(
                site.url("files"), to: site.destination)
            #expect(whole == DownloadResult(destination: site.destination, bytes: 300_000, resumedFrom: 300_000))
            #expect(try Data(contentsOf: site.destination) == DownloadSite.episode)

            let longer = site.downloads.appendingPathComponent("longer.mp3")
            try (DownloadSite.episode + Data(count: 10)).write(to: FileDownloader.partialFile(for: longer))
            let restarted = try await FileDownloader(transport: try streamingTransport()).download(
                site.url("files"), to: longer)
            #expect(restarted.resumedFrom == 0)
            #expect(try Data(contentsOf: longer) == DownloadSite.episode)
            #expect(try site.requests().map(\.range) == ["bytes=300000-", "bytes=300010-", nil])
        }
    }

    @Test("a length other than announced is an error and the part stays: a 206's total, a feed's declared length")
    func lengthMismatch() async throws {
        try await DownloadSite.run { site in
            try DownloadSite.episode.prefix(1000).write(to: site.part)
            let announced = await downloadError {
                try await FileDownloader(transport: try streamingTransport()).download(
                    site.url("badtotal"), to: site.destination)
            }
            #expect(announced == .lengthMismatch(expected: 300_100, received: 300_000))
            #expect(try Data(contentsOf: site.part) == DownloadSite.episode)
            #expect(!FileManager.default.fileExists(atPath: site.destination.path))

            // No length from the server (chunked): the feed's declared length is checked.
            let declared = site.downloads.appendingPathComponent("declared.mp3")
            let error = await downloadError {
                try await FileDownloader(transport: try streamingTransport()).download(
                    site.url("chunked"), to: declared, expectedLength: 299_999)
            }
            #expect(error == .lengthMismatch(expected: 299_999, received: 300_000))
            #expect(FileManager.default.fileExists(atPath: FileDownloader.partialFile(for: declared).path))
            let fine = try await FileDownloader(transport: try streamingTransport()).download(
                site.url("chunked"), to: site.downloads.appendingPathComponent("fine.mp3"), expectedLength: 300_000)
            #expect(fine.bytes == 300_000)
        }
    }

    @Test("a 206 that does not continue the part is refused, and the part is left as it was")
    func unexpectedRange() async throws {
        try await DownloadSite.run { site in
            try DownloadSite.episode.prefix(5000).write(to: site.part)
            let error = await downloadError {
                try await FileDownloader(transport: try streamingTransport()).download(
                    site.url("badrange"), to: site.destination)
            }
            #expect(error == .unexpectedRange("bytes 0-294999/300000"))
            #expect(try Data(contentsOf: site.part) == DownloadSite.episode.prefix(5000))
        }
    }

    @Test("a file under the destination's name is never replaced; a failed request leaves no empty part")
    func neverReplaces() async throws {
        try await DownloadSite.run { site in
            try Data("mine".utf8).write(to: site.destination)
            let error = await downloadError {
                try await FileDownloader(transport: try streamingTransport()).download(
                    site.url("files"), to: site.destination)
            }
            guard case .file(let path, _) = error else {
                Issue.record("not a file error: \(String(describing: error))")
                return
            }
            #expect(path == site.destination.path)
            #expect(try Data(contentsOf: site.destination) == Data("mine".utf8))
            #expect(try Data(contentsOf: site.part) == DownloadSite.episode)

            let missing = site.downloads.appendingPathComponent("missing.mp3")
            let notFound = await downloadError {
                try await FileDownloader(transport: try streamingTransport()).download(
                    site.url("files", "missing.mp3"), to: missing)
            }
            guard case .status(let response) = notFound else {
                Issue.record("not a status: \(String(describing: notFound))")
                return
            }
            #expect(response.status == 404)
            #expect(!FileManager.default.fileExists(atPath: FileDownloader.partialFile(for: missing).path))
        }
    }

    @Test("redirects are followed with the range; a redirect to ftp: is refused before anything connects")
    func redirects() async throws {
        try await DownloadSite.run { site in
            try DownloadSite.episode.prefix(7).write(to: site.part)
            let result = try await FileDownloader(transport: try streamingTransport()).download(
                site.url("redirect/files"), to: site.destination)
            #expect(result.resumedFrom == 7)
            #expect(try Data(contentsOf: site.destination) == DownloadSite.episode)
            #expect(try site.requests().map(\.range) == ["bytes=7-", "bytes=7-"])

            let error = await downloadError {
                try await FileDownloader(transport: try streamingTransport()).download(
                    site.url("toftp"), to: site.downloads.appendingPathComponent("ftp.mp3"))
            }
            guard case .unsupportedScheme("ftp", _) = error else {
                Issue.record("not refused: \(String(describing: error))")
                return
            }
        }
    }

    /// Starts downloading `stall` (the server sends half and holds the connection), cancels once
    /// 150,000 bytes arrived, and returns the error the download ended with.
    private static func cancelHalfway(_ site: DownloadSite, _ transport: any HTTPStreaming) async throws
        -> NetworkError?
    {
        let arrived = Watched<Int64>(0)
        let task = Task {
            try await FileDownloader(transport: transport).download(
                site.url("stall"), to: site.destination, progress: { step in arrived.update { $0 = step.bytes } })
        }
        try await arrived.wait { $0 >= 150_000 }
        task.cancel()
        return await downloadError { try await task.value }
    }

    @Test(
        "cancelled mid-transfer: .cancelled, the part keeps what arrived; the next run resumes it with If-Range"
    )
    func cancelledThenResumed() async throws {
        try await DownloadSite.run { site in
            let transport = try streamingTransport()
            let error = try await Self.cancelHalfway(site, transport)
            #expect(error == .cancelled)
            #expect(try Data(contentsOf: site.part) == DownloadSite.episode.prefix(150_000))

            let result = try await FileDownloader(transport: transport).download(
                site.url("stall"), to: site.destination)
            #expect(result.resumedFrom == 150_000)
            #expect(try Data(contentsOf: site.destination) == DownloadSite.episode)
            let requests = try site.requests()
            #expect(requests.map(\.range) == [nil, "bytes=150000-"])
            #expect(requests.last?.ifRange?.hasPrefix("\"300000-") == true)
        }
    }

    @Test("a part whose file changed on the server since (If-Range fails) starts over with the new file")
    func changedFileStartsOver() async throws {
        try await DownloadSite.run { site in
            let transport = try streamingTransport()
            _ = try await Self.cancelHalfway(site, transport)
            let changed = Data(DownloadSite.episode.reversed())
            try changed.write(to: site.site.appendingPathComponent("episode.mp3"))
            let result = try await FileDownloader(transport: transport).download(
                site.url("stall"), to: site.destination)
            #expect(result.resumedFrom == 0)
            #expect(try Data(contentsOf: site.destination) == changed)
        }
    }

    @Test("a part downloaded from another address is not resumed from this one")
    func otherAddressesPart() async throws {
        try await DownloadSite.run { site in
            try DownloadSite.episode.write(to: site.site.appendingPathComponent("other.mp3"))
            let arrived = Watched<Int64>(0)
            let transport = try streamingTransport()
            let task = Task {
                try await FileDownloader(transport: transport).download(
                    site.url("stall", "other.mp3"), to: site.destination,
                    progress: { step in arrived.update { $0 = step.bytes } })
            }
            try await arrived.wait { $0 >= 150_000 }
            task.cancel()
            _ = await downloadError { try await task.value }
            #expect(FileDownloader.file(site.part, isFrom: site.url("stall", "other.mp3")) == true)
            let error = await downloadError {
                try await FileDownloader(transport: transport).download(site.url("files"), to: site.destination)
            }
            guard case .file(let path, let reason) = error else {
                Issue.record("resumed: \(String(describing: error))")
                return
            }
            #expect(path == site.part.path && reason.contains("another address"))
            #expect(try Data(contentsOf: site.part).count == 150_000)
        }
    }

    @Test("length(of:) is the HEAD's Content-Length, redirects followed; nil for a 404")
    func length() async throws {
        try await DownloadSite.run { site in
            let downloader = FileDownloader(transport: try streamingTransport())
            #expect(try await downloader.length(of: site.url("redirect/files")) == 300_000)
            #expect(try await downloader.length(of: site.url("files", "missing.mp3")) == nil)
            #expect(try site.requests().map(\.method) == ["HEAD", "HEAD", "HEAD"])
        }
    }
}
