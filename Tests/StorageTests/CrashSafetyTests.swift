import Foundation
import GRDB
import Models
import Testing

@testable import Storage

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Crash safety")
struct CrashSafetyTests {
    /// The probe executable, built beside the test bundle.
    var probe: URL? {
        let directory = Bundle.main.executableURL?.deletingLastPathComponent()
        let candidates = [
            directory, directory?.deletingLastPathComponent(), Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        return candidates.compactMap { $0?.appendingPathComponent("StorageProbe") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    @Test(
        "SIGKILL in the middle of merges, with the search index built beside them or not, loses no commit, leaves no half-merged feed, and leaves an index the next search completes",
        arguments: [0, 1, 2], [false, true])
    func killDuringMerge(round: Int, indexing: Bool) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("tidings.sqlite").path
        let batchSize = 3_000

        let process = ChildProcess()
        let executable = try #require(probe, "the StorageProbe executable was not built")
        process.executableURL = executable
        process.arguments = [path, String(batchSize)] + (indexing ? ["index"] : [])
        let output = Pipe()
        process.standardOutput = output
        try process.run()

        // Wait for a few commits (bounded, so a broken probe cannot hang the suite), then kill
        // at a moment that varies by round, so the kill lands at different points of a merge.
        var reported: [Int64] = []
        var buffer = Data()
        let deadline = Date().addingTimeInterval(60)
        var indexedBefore = 0
        while reported.count < 2 + round || (indexing && indexedBefore == 0), Date() < deadline, process.isRunning {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n")
            reported = lines.compactMap { line in
                let words = line.split(separator: " ")
                return words.count == 3 && words[0] == "merged" ? Int64(words[1]) : nil
            }
            indexedBefore = lines.filter { $0.hasPrefix("indexed ") }.count
        }
        if indexing { #expect(indexedBefore > 0, "the probe reported no index batch before the deadline") }
        #expect(reported.count >= 2 + round, "the probe reported \(reported.count) merges before the deadline")
        try await Task.sleep(for: .milliseconds(17 * round + 5))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let database = try AppDatabase(path: path)
        #expect(try database.integrityCheck() == ["ok"])
        let counts = try await database.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT feed.id, (SELECT count(*) FROM article WHERE article.feedId = feed.id) AS articles,
                           (SELECT count(*) FROM articleStatus WHERE articleStatus.feedId = feed.id) AS statuses
                    FROM feed
                    """
            ).map { (id: $0["id"] as Int64, articles: $0["articles"] as Int, statuses: $0["statuses"] as Int) }
        }
        // Every feed holds a whole batch or nothing, with one status per article.
        for feed in counts {
            #expect(feed.articles == 0 || feed.articles == batchSize, "feed \(feed.id) has \(feed.articles) articles")
            #expect(feed.statuses == feed.articles)
        }
        // Every merge the probe reported as committed is there.
        let complete = Set(counts.filter { $0.articles == batchSize }.map(\.id))
        #expect(Set(reported).isSubset(of: complete))
        // The index file is sound as the kill left it, and the next search completes it: it
        // agrees with the articles.
        #expect(try database.searchIntegrityCheck() == ["ok"])
        let indexed = try await ArticleRepository(database: database).count(matching: ArticleQuery(search: "lorem"))
        #expect(indexed == complete.count * batchSize)
        #expect(try database.searchIntegrityCheck() == ["ok"])
    }
}
