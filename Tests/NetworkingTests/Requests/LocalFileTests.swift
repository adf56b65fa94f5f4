import CMappedFile
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

    func temporaryFile(bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tidings-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        return url
    }

    @Test("a regular file is read as it is, at every size around a page", arguments: [1, 4095, 4096, 4097, 100_003])
    func contents(size: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let url = try temporaryFile(bytes: bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try LocalFile.read(url) == Data(bytes))
        #expect(try LocalFile.read(url, mapping: true) == Data(bytes))
    }

    /// A mapped file's Data is a Data like any other: changing it changes this copy only.
    @Test("a mapped file's data can be changed and cut like any other, and the file stays as it was")
    func mappedDataIsOurs() throws {
        let bytes = Array("0123456789".utf8) + Array(repeating: UInt8(ascii: "x"), count: 10_000)
        let url = try temporaryFile(bytes: bytes)
        defer { try? FileManager.default.removeItem(at: url) }
        var data = try LocalFile.read(url, mapping: true)
        data[0] = UInt8(ascii: "A")
        data.removeLast(5_000)
        data.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) in raw[1] = UInt8(ascii: "B") }
        #expect(data.prefix(3) == Data("AB2".utf8))
        #expect(data.count == bytes.count - 5_000)
        #expect(try Data(contentsOf: url) == Data(bytes))
    }

    @Test("an empty file and a file that reports no size (/proc) are read whole")
    func sizeless() throws {
        let empty = try temporaryFile(bytes: [])
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(try LocalFile.read(empty, mapping: true).isEmpty)
        let status = try LocalFile.read(URL(fileURLWithPath: "/proc/self/status"), mapping: true)
        #expect(String(decoding: status, as: UTF8.self).contains("Name:"))
    }

    /// Files are mapped, not copied: a file another program truncates meanwhile must not kill
    /// the process (SIGBUS) when the part cut off is read.
    @Test("a file truncated while it is read does not kill the process: the part cut off reads as zeros")
    func truncatedMeanwhile() throws {
        let size = 64 * 1024
        let url = try temporaryFile(bytes: Array(repeating: UInt8(ascii: "a"), count: size))
        defer { try? FileManager.default.removeItem(at: url) }
        let data = try LocalFile.read(url, mapping: true)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 4096)
        try handle.close()
        #expect(data.count == size)
        #expect(data.prefix(4096).allSatisfy { $0 == UInt8(ascii: "a") })
        // Past the cut (from the next page on): zeros, not a crash.
        #expect(data.suffix(from: 8192).allSatisfy { $0 == 0 })
    }

    @Test("a mapping whose file shrank says so when it is unmapped; one whose file did not, does not")
    func mappingReportsDamage() throws {
        let size = 3 * 4096 + 100
        let url = try temporaryFile(bytes: Array(repeating: UInt8(ascii: "b"), count: size))
        defer { try? FileManager.default.removeItem(at: url) }
        let descriptor = open(url.path, O_RDONLY)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        let intact = try #require(tidings_map_file(descriptor, size))
        #expect(intact.load(fromByteOffset: size - 1, as: UInt8.self) == UInt8(ascii: "b"))
        #expect(tidings_unmap_file(intact, size) == 0)

        let mapped = try #require(tidings_map_file(descriptor, size))
        #expect(truncate(url.path, 100) == 0)
        #expect(mapped.load(fromByteOffset: 50, as: UInt8.self) == UInt8(ascii: "b"))
        #expect(mapped.load(fromByteOffset: 2 * 4096 + 7, as: UInt8.self) == 0)
        #expect(mapped.load(fromByteOffset: size - 1, as: UInt8.self) == 0)
        #expect(tidings_unmap_file(mapped, size) == 1)
    }
}
