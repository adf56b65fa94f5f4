import Foundation
import Testing

/// What one command leaves behind for the next: a large write must not leave a large log,
/// which every later process would recover and checkpoint again.
@Suite("The log a command leaves behind")
struct WriteAheadLogTests {
    @Test("a feed add of thousands of articles leaves an empty log; a task add leaves a small one")
    func logAfterLargeWrite() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-wal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        // About 4 MB: 3,000 items of 1 KB of text each.
        var document = #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Big</title>"#
        let body = String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", count: 18)
        for index in 0..<3_000 {
            document +=
                "<item><title>Item \(index)</title><guid>g\(index)</guid><description>\(body)</description></item>"
        }
        document += "</channel></rss>"
        let feed = home.appendingPathComponent("big.rss")
        try Data(document.utf8).write(to: feed)
        let log = home.appendingPathComponent("tidings.sqlite-wal").path
        func logSize() throws -> Int { try FileManager.default.attributesOfItem(atPath: log)[.size] as? Int ?? -1 }

        let added = try TidingsBinary.run(["--home", home.path, "-c", "feed add \(feed.path)"])
        #expect(added.status == 0, "\(added.err)")
        #expect(try logSize() == 0)
        let task = try TidingsBinary.run(["--home", home.path, "-c", "task add water the plants"])
        #expect(task.status == 0, "\(task.err)")
        let small = try logSize()
        #expect(small > 0 && small < 1 << 20)
        let list = try TidingsBinary.run(["--home", home.path, "-c", "task list"])
        #expect(list.out.contains("water the plants"))
    }
}
