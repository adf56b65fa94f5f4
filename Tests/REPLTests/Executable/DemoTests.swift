import Foundation
import Testing

@Suite("the embedded demo")
struct DemoTests {
    @Test("Demo/setup.tidings (what make run loads) subscribes the three bundled feeds and adds two chores, offline")
    func demoSetup() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..")
            .standardizedFileURL
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let setup = try TidingsBinary.run(["--home", home.path, "Demo/setup.tidings"], directory: root)
        #expect(setup.status == 0, "\(setup.err)")
        let feeds = try TidingsBinary.run(["--home", home.path, "--json", "-c", "feed list"])
        for format in ["Millbrook Town News", "The Kitchen Garden", "Home Tips"] { #expect(feeds.out.contains(format)) }
        let items = try TidingsBinary.run(["--home", home.path, "--json", "-c", "items"])
        #expect(items.out.contains(#""total":10"#))
        let tasks = try TidingsBinary.run(["--home", home.path, "-c", "task list"])
        #expect(tasks.out.contains("Take out the bins") && tasks.out.contains("Water the houseplants"))
    }
}
