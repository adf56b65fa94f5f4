import Foundation
import Testing

@testable import Networking

/// Local files are read with a cap, as HTTP bodies are: the size is checked before reading, and
/// endless devices stop at the cap.
@Suite("Local files")
struct LocalFileTests {
    func temporaryFile(size: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(size))  // sparse: no disk is used
        try handle.close()
        return url
    }

    @Test("a file over the cap is refused by its size; one at the cap is read whole")
    func cap() throws {
        let big = try temporaryFile(size: 300_000_000)
        defer { try? FileManager.default.removeItem(at: big) }
        #expect(throws: LocalFile.Failure.tooLarge(limit: LocalFile.defaultLimit)) { try LocalFile.read(big) }
        let small = try temporaryFile(size: 4096)
        defer { try? FileManager.default.removeItem(at: small) }
        #expect(try LocalFile.read(small, limit: 4096).count == 4096)
        #expect(throws: LocalFile.Failure.tooLarge(limit: 4095)) { try LocalFile.read(small, limit: 4095) }
    }

    @Test("an endless device is read only up to the cap")
    func endlessDevice() {
        #expect(throws: LocalFile.Failure.tooLarge(limit: 1_000_000)) {
            try LocalFile.read(URL(fileURLWithPath: "/dev/zero"), limit: 1_000_000)
        }
    }

    @Test("a directory and a missing file are refused in words")
    func unreadable() {
        #expect(throws: LocalFile.Failure.directory) { try LocalFile.read(URL(fileURLWithPath: "/tmp")) }
        #expect(throws: LocalFile.Failure.system("no such file")) {
            try LocalFile.read(URL(fileURLWithPath: "/no/such/file.xml"))
        }
    }
}
