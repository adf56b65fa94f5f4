import Foundation
import Networking
import Synchronization
import Testing

@testable import REPL

@Suite("Download names and places")
struct DownloadFolderTests {
    @Test(
        "a file name from an enclosure URL is its last path segment, made safe whatever the feed says",
        arguments: [
            ("https://cdn.test/shows/42/episode-12.mp3?token=abc#t=10", "episode-12.mp3"),
            ("https://cdn.test/shows/42/", "42"),
            ("https://cdn.test/", "download"),
            ("https://cdn.test", "download"),
            ("https://cdn.test/a/..%2F..%2Fetc%2Fpasswd", "_.._etc_passwd"),
            ("https://cdn.test/a/%2F", "_"),
            ("https://cdn.test/a/%5C..%5Cwin.ini", "_.._win.ini"),
            ("https://cdn.test/a/..", "download"),
            ("https://cdn.test/a/%2E%2E", "download"),
            ("https://cdn.test/a/...", "download"),
            ("https://cdn.test/a/.bashrc", "bashrc"),
            ("https://cdn.test/a/--help", "help"),
            ("https://cdn.test/a/%20%20spaced%20.mp3%20", "spaced .mp3"),
            ("https://cdn.test/a/x%00y.mp3", "xy.mp3"),
            ("https://cdn.test/a/x%1B%5D0;title%07y.mp3", "xy.mp3"),
            ("https://cdn.test/a/tab%09and%0Anew%0Dline.mp3", "tab and new line.mp3"),
            ("https://cdn.test/a/%E2%80%AEevil%E2%81%A6.mp3", "evil.mp3"),
            ("https://cdn.test/a/%C3%A9pisode%20%E2%84%968.mp3", "épisode №8.mp3"),
            ("https://cdn.test/a/%ZZ.mp3", "%ZZ.mp3"),
        ])
    func fileNames(url: String, name: String) throws {
        #expect(DownloadFolder.fileName(for: try #require(URL(string: url))) == name)
    }

    @Test("a very long name is cut to 200 bytes on a character boundary, keeping a short extension")
    func longNames() throws {
        let ascii = try #require(URL(string: "https://cdn.test/" + String(repeating: "a", count: 500) + ".mp3"))
        #expect(DownloadFolder.fileName(for: ascii) == String(repeating: "a", count: 196) + ".mp3")
        let wide = String(repeating: "é", count: 300)  // two bytes each
        let cut = DownloadFolder.bounded(wide + ".m4a")
        #expect(cut == String(repeating: "é", count: 98) + ".m4a" && cut.utf8.count == 200)
        let noExtension = DownloadFolder.bounded(
            String(repeating: "b", count: 300) + "." + String(repeating: "c", count: 40))
        #expect(noExtension.utf8.count == 200 && noExtension.allSatisfy { $0 == "b" })
        #expect(DownloadFolder.numbered(cut, 99).utf8.count + ".part".utf8.count <= 255)
    }

    @Test("numbered names go before the extension")
    func numbered() {
        #expect(DownloadFolder.numbered("episode.mp3", 1) == "episode (1).mp3")
        #expect(DownloadFolder.numbered("archive.tar.gz", 2) == "archive.tar (2).gz")
        #expect(DownloadFolder.numbered("README", 3) == "README (3)")
    }

    @Test("the download directory: an absolute $XDG_DOWNLOAD_DIR, else ~/Downloads")
    func directory() {
        #expect(
            DownloadFolder.defaultDirectory(environment: ["XDG_DOWNLOAD_DIR": "/media/podcasts", "HOME": "/home/a"])
                .path == "/media/podcasts")
        #expect(
            DownloadFolder.defaultDirectory(environment: ["XDG_DOWNLOAD_DIR": "podcasts", "HOME": "/home/a"]).path
                == "/home/a/Downloads")
        #expect(DownloadFolder.defaultDirectory(environment: ["HOME": "/home/b"]).path == "/home/b/Downloads")
    }

    @Test("the name chosen: free, a part resumed, a file of the server's length there, others skipped, one HEAD")
    func choose() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-choose-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try #require(URL(string: "https://cdn.test/episode.mp3"))
        let asked = LockedCount()
        func choose(length: Int64?, declared: Int64? = nil) async throws -> DownloadFolder.Choice? {
            try await DownloadFolder.choose(
                name: "episode.mp3", in: directory, source: source, declaredLength: declared,
                length: {
                    asked.add()
                    return length
                })
        }
        let file = { (name: String) in directory.appendingPathComponent(name) }

        #expect(try await choose(length: 10) == .download(file("episode.mp3")))
        #expect(asked.value == 0)
        try Data(count: 3).write(to: file("episode.mp3.part"))
        #expect(try await choose(length: 10) == .download(file("episode.mp3")))

        try Data(count: 4).write(to: file("episode.mp3"))
        #expect(try await choose(length: 10) == .download(file("episode (1).mp3")))
        #expect(asked.value == 1)
        #expect(try await choose(length: 4) == .downloaded(file("episode.mp3"), bytes: 4))
        #expect(try await choose(length: nil, declared: 4) == .downloaded(file("episode.mp3"), bytes: 4))
        // No length from anyone and no recorded origin: it cannot be the same file.
        #expect(try await choose(length: nil) == .download(file("episode (1).mp3")))

        try FileManager.default.createDirectory(at: file("episode (1).mp3"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: file("episode (2).mp3"), withDestinationURL: file("episode.mp3"))
        #expect(try await choose(length: 10) == .download(file("episode (3).mp3")))

        for n in 3..<DownloadFolder.maxCandidates { try Data(count: 1).write(to: file("episode (\(n)).mp3")) }
        #expect(try await choose(length: 10) == nil)
    }

    @Test("the progress line: percent, bar, bytes of total and rate, fitted to the width; without a total, bytes")
    func progressLine() {
        let half = DownloadProgress(bytes: 12_300_000, total: 24_600_000, resumedFrom: 0)
        #expect(
            ProgressBar.line(name: "episode.mp3", progress: half, bytesPerSecond: 1_234_567, width: 100)
                == "episode.mp3   50% [###############               ] 12.3 MB of 24.6 MB  1.2 MB/s")
        let narrow = ProgressBar.line(
            name: String(repeating: "n", count: 80), progress: half, bytesPerSecond: nil, width: 60)
        #expect(DisplayWidth.of(narrow) <= 59 && narrow.contains("50% [") && narrow.hasSuffix("12.3 MB of 24.6 MB"))
        let unknown = DownloadProgress(bytes: 999, total: nil, resumedFrom: 0)
        #expect(ProgressBar.line(name: "x.mp3", progress: unknown, bytesPerSecond: nil, width: 80) == "x.mp3  999 B")
        #expect(ProgressBar.bytes(0) == "0 B" && ProgressBar.bytes(400_000) == "400 KB")
        #expect(ProgressBar.bytes(2_970_000) == "3.0 MB" && ProgressBar.bytes(1_500_000_000) == "1.50 GB")
    }

    @Test("the bar is drawn for the first update, then at most every tenth of a second, and for the last byte")
    func throttled() {
        let recorder = Recorder()
        let bar = ProgressBar(name: "e.mp3", width: { 80 }, now: { recorder.now }, draw: { recorder.add($0) })
        for bytes in stride(from: Int64(0), through: 1000, by: 100) {
            bar.update(DownloadProgress(bytes: bytes, total: 1000, resumedFrom: 0))
        }
        #expect(recorder.lines.count == 2, "\(recorder.lines)")
        #expect(recorder.lines.first?.contains("0% [") == true && recorder.lines.last?.contains("100% [") == true)

        let paced = Recorder()
        let second = ProgressBar(name: "e.mp3", width: { 80 }, now: { paced.now }, draw: { paced.add($0) })
        for bytes in stride(from: Int64(0), through: 500, by: 100) {
            second.update(DownloadProgress(bytes: bytes, total: 1000, resumedFrom: 0))
            paced.advance(.milliseconds(250))
        }
        #expect(paced.lines.count == 6, "\(paced.lines)")
        #expect(paced.lines.first?.hasSuffix(" 0 B of 1 KB") == true, "no rate before a fifth of a second")
        #expect(paced.lines.last?.hasSuffix("500 B of 1 KB  400 B/s") == true, "\(paced.lines)")
    }
}

/// A counter closures may bump from any thread.
private final class LockedCount: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func add() { count.withLock { $0 += 1 } }
}

/// Lines collected from any thread, and a clock the test moves.
private final class Recorder: Sendable {
    private let state = Mutex<(lines: [String], now: ContinuousClock.Instant)>(([], ContinuousClock.now))
    var lines: [String] { state.withLock { $0.lines } }
    var now: ContinuousClock.Instant { state.withLock { $0.now } }
    func add(_ line: String) { state.withLock { $0.lines.append(line) } }
    func advance(_ duration: Duration) { state.withLock { $0.now = $0.now.advanced(by: duration) } }
}
