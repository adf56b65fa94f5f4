import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `item download` through the binary, against a real server with byte ranges.
@Suite("item download", .serialized)
struct DownloadTests {
    /// The JSON document of a run.
    func document(_ result: TidingsBinary.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any], "\(result.out)")
    }

    @Test("a whole download: the file as served, no .part left; again, already downloaded without a transfer")
    func whole() async throws {
        try await PodcastSite.run([.init(title: "One", path: "files/episode.mp3", length: 400_000)]) { podcast in
            let id = try podcast.id("One")
            let saved = try podcast.tidings(["item download \(id)"])
            let file = podcast.downloads.appendingPathComponent("episode.mp3")
            #expect(saved.status == 0, "\(saved.err)")
            #expect(saved.out == "saved item #\(id)'s enclosure 1 to \(file.path) (400 KB)\n")
            #expect(try Data(contentsOf: file) == PodcastSite.audio)
            #expect(try FileManager.default.contentsOfDirectory(atPath: podcast.downloads.path) == ["episode.mp3"])

            let again = try podcast.tidings(["item download \(id) 1"], json: true)
            #expect(again.status == 0, "\(again.err)")
            let json = try document(again)
            #expect(json["id"] as? Int == id && json["enclosure"] as? Int == 1)
            #expect(json["path"] as? String == file.path && json["bytes"] as? Int == 400_000)
            #expect(json["resumed"] as? Bool == false && json["already_downloaded"] as? Bool == true)
            #expect(try podcast.requests("episode").map(\.method) == ["GET", "HEAD"])
            let text = try podcast.tidings(["item download \(id)"])
            #expect(text.out == "already downloaded: \(file.path) (400 KB)\n")
        }
    }

    @Test("set download-dir sends downloads there instead of $XDG_DOWNLOAD_DIR; a relative one is refused")
    func downloadDirSetting() async throws {
        try await PodcastSite.run([.init(title: "One", path: "files/episode.mp3", length: 400_000)]) { podcast in
            let id = try podcast.id("One")
            let elsewhere = podcast.downloads.deletingLastPathComponent().appendingPathComponent("elsewhere")
            let set = try podcast.tidings(["set download-dir \(elsewhere.path)", "set download-dir relative/dir"])
            #expect(set.err.contains(#"download-dir: an absolute path (or one starting with ~), got "relative/dir""#))
            let saved = try podcast.tidings(["item download \(id)"])
            #expect(saved.status == 0, "\(saved.err)")
            #expect(try Data(contentsOf: elsewhere.appendingPathComponent("episode.mp3")) == PodcastSite.audio)
            #expect(
                !FileManager.default.fileExists(atPath: podcast.downloads.appendingPathComponent("episode.mp3").path))
            try? FileManager.default.removeItem(at: elsewhere)
        }
    }

    @Test("a transfer killed half-way leaves NAME.part; the next run resumes it with a Range request, byte for byte")
    func resumesAfterAKill() async throws {
        try await PodcastSite.run([.init(title: "Stall", path: "stall/episode.mp3")]) { podcast in
            let id = try podcast.id("Stall")
            let part = podcast.downloads.appendingPathComponent("episode.mp3.part")
            let process = try TidingsBinary.start(
                ["--home", podcast.home.path, "-c", "item download \(id)"], environment: podcast.environment)
            // The server sends half, then holds the connection.
            PodcastSite.waitForFile(part, holding: 200_000)
            await TidingsBinary.kill(process, after: 0)
            #expect(PodcastSite.size(part) == 200_000)

            let resumed = try podcast.tidings(["item download \(id)"], json: true)
            #expect(resumed.status == 0, "\(resumed.err)")
            let json = try document(resumed)
            #expect(json["resumed"] as? Bool == true && json["bytes"] as? Int == 400_000)
            let file = podcast.downloads.appendingPathComponent("episode.mp3")
            #expect(try Data(contentsOf: file) == PodcastSite.audio)
            #expect(!FileManager.default.fileExists(atPath: part.path))
            #expect(try podcast.requests("stall").map(\.range) == [nil, "bytes=200000-"])
        }
    }

    @Test("a server that ignores Range sends the whole file again: the part starts over and the file is right")
    func serverIgnoresRange() async throws {
        try await PodcastSite.run([.init(title: "Plain", path: "norange/episode.mp3")]) { podcast in
            let part = podcast.downloads.appendingPathComponent("episode.mp3.part")
            try Data(repeating: 0xAB, count: 123_456).write(to: part)
            let result = try podcast.tidings(["item download \(try podcast.id("Plain"))"], json: true)
            #expect(result.status == 0, "\(result.err)")
            #expect(try document(result)["resumed"] as? Bool == false)
            #expect(try Data(contentsOf: podcast.downloads.appendingPathComponent("episode.mp3")) == PodcastSite.audio)
            #expect(try podcast.requests("norange").map(\.range) == ["bytes=123456-"])
        }
    }

    @Test("a length other than the feed declares (the server giving none) fails clearly and keeps the .part")
    func lengthMismatch() async throws {
        try await PodcastSite.run([.init(title: "Liar", path: "chunked/episode.mp3", length: 500_000)]) { podcast in
            let id = try podcast.id("Liar")
            let failed = try podcast.tidings(["item download \(id)"])
            let part = podcast.downloads.appendingPathComponent("episode.mp3.part")
            #expect(failed.status == 1)
            #expect(
                failed.err
                    == "error: item #\(id)'s enclosure 1: the download ended at 400000 bytes, but 500000 were "
                    + "announced; the partial file is kept: \(part.path) (item download \(id) 1 resumes it)\n")
            #expect(PodcastSite.size(part) == 400_000)
            #expect(
                !FileManager.default.fileExists(atPath: podcast.downloads.appendingPathComponent("episode.mp3").path))
            let json = try podcast.tidings(["item download \(id)"], json: true)
            let error = try #require(try document(json)["error"] as? [String: Any])
            #expect(error["code"] as? String == "length_mismatch")
        }
    }

    @Test("an existing different file is never overwritten: the download takes NAME (1), and keeps it")
    func neverOverwrites() async throws {
        try await PodcastSite.run([.init(title: "One", path: "files/episode.mp3")]) { podcast in
            let id = try podcast.id("One")
            let mine = podcast.downloads.appendingPathComponent("episode.mp3")
            try Data("my own recording".utf8).write(to: mine)
            let saved = try podcast.tidings(["item download \(id)"])
            let numbered = podcast.downloads.appendingPathComponent("episode (1).mp3")
            #expect(saved.status == 0, "\(saved.err)")
            #expect(
                saved.out
                    == "saved item #\(id)'s enclosure 1 to \(numbered.path) (400 KB); episode.mp3 there is another file\n"
            )
            #expect(try Data(contentsOf: mine) == Data("my own recording".utf8))
            #expect(try Data(contentsOf: numbered) == PodcastSite.audio)
            let again = try podcast.tidings(["item download \(id)"])
            #expect(again.out == "already downloaded: \(numbered.path) (400 KB)\n")
            #expect(try podcast.requests("episode").filter { $0.method == "GET" }.count == 1)
        }
    }

    @Test("hostile enclosure names land directly in the download directory under safe names")
    func hostileNames() async throws {
        let long = String(repeating: "a", count: 400)
        let cases: [(path: String, name: String)] = [
            ("any/..%2F..%2Fetc%2Fx", "_.._etc_x"),
            ("any/%2F", "_"),
            ("any/%2E%2E", "download"),
            ("any/.hidden.mp3", "hidden.mp3"),
            ("any/ep%1B%5B31m%07red%0A.mp3", "epred .mp3"),
            ("any/-rf.mp3", "rf.mp3"),
            ("any/\(long).mp3", String(repeating: "a", count: 196) + ".mp3"),
            ("any/%E2%80%AEevil3pm.exe", "evil3pm.exe"),
        ]
        let episodes = cases.enumerated().map { PodcastSite.Episode(title: "Case \($0.offset)", path: $0.element.path) }
        try await PodcastSite.run(episodes) { podcast in
            let before = try FileManager.default.contentsOfDirectory(
                atPath: podcast.downloads.deletingLastPathComponent().path)
            for (index, expected) in cases.enumerated() {
                let result = try podcast.tidings(["item download \(try podcast.id("Case \(index)"))"], json: true)
                #expect(result.status == 0, "\(expected.path): \(result.err)")
                let path = try document(result)["path"] as? String
                #expect(path == podcast.downloads.appendingPathComponent(expected.name).path, "\(expected.path)")
            }
            let saved = try FileManager.default.contentsOfDirectory(atPath: podcast.downloads.path).sorted()
            #expect(saved == cases.map(\.name).sorted())
            for name in saved {
                #expect(try Data(contentsOf: podcast.downloads.appendingPathComponent(name)) == PodcastSite.audio)
            }
            let after = try FileManager.default.contentsOfDirectory(
                atPath: podcast.downloads.deletingLastPathComponent().path)
            #expect(before.sorted() == after.sorted(), "something was written beside the download directory")
        }
    }

    @Test("the enclosure is checked: none, a number past the last, not http(s); --to must be a directory")
    func refusals() async throws {
        try await PodcastSite.run([
            .init(title: "Local", path: "file:///etc/passwd"), .init(title: "One", path: "files/episode.mp3"),
        ]) { podcast in
            let local = try podcast.tidings(["item download \(try podcast.id("Local"))"], json: true)
            #expect(local.status == 1)
            #expect(try (document(local)["error"] as? [String: Any])?["code"] as? String == "unsafe_link")
            let one = try podcast.id("One")
            let past = try podcast.tidings(["item download \(one) 2"])
            #expect(past.err == "error: item #\(one) has one enclosure; there is no enclosure 2\n")
            let zero = try podcast.tidings(["item download \(one) 0"])
            #expect(zero.err.hasPrefix("error: N must be an enclosure number like 2"))
            let nowhere = try podcast.tidings(["item download \(one) --to \(podcast.home.path)/nowhere"])
            #expect(nowhere.err == "error: --to: no such directory: \(podcast.home.path)/nowhere\n")
            #expect(try podcast.requests("").isEmpty)
            let elsewhere = podcast.home.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            let to = try podcast.tidings(["item download \(one) --to \(elsewhere.path)"])
            #expect(to.status == 0, "\(to.err)")
            #expect(try Data(contentsOf: elsewhere.appendingPathComponent("episode.mp3")) == PodcastSite.audio)
        }
    }

    @Test("without XDG_DOWNLOAD_DIR (or with a relative one) downloads go to ~/Downloads, made when missing")
    func defaultDirectory() async throws {
        try await PodcastSite.run([.init(title: "One", path: "files/episode.mp3")]) { podcast in
            let user = podcast.home.appendingPathComponent("user")
            try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
            let result = try podcast.tidings(
                ["item download \(try podcast.id("One"))"],
                environment: ["XDG_DOWNLOAD_DIR": "relative", "HOME": user.path])
            #expect(result.status == 0, "\(result.err)")
            #expect(try Data(contentsOf: user.appendingPathComponent("Downloads/episode.mp3")) == PodcastSite.audio)
        }
    }

    @Test("Ctrl-C in a script stops the download with status 130 and keeps the partial file")
    func interruptedScript() async throws {
        try await PodcastSite.run([.init(title: "Stall", path: "stall/episode.mp3")]) { podcast in
            let id = try podcast.id("Stall")
            let part = podcast.downloads.appendingPathComponent("episode.mp3.part")
            let process = ChildProcess()
            process.executableURL = TidingsBinary.url
            process.arguments = ["--home", podcast.home.path, "-c", "item download \(id)", "-c", "help"]
            process.environment = ProcessInfo.processInfo.environment.merging(podcast.environment) { _, new in new }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            try process.run()
            PodcastSite.waitForFile(part, holding: 200_000)
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 130)
            #expect(
                text
                    == "error: interrupted; the partial file is kept: \(part.path) (item download \(id) 1 resumes it)\n"
            )
            #expect(PodcastSite.size(part) == 200_000)
        }
    }
}
