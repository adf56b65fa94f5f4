import CLibXML2
import CLibXML2Loader
import Foundation
import Testing

@testable import Markup

@Suite("libxml2, opened on first use")
struct XMLLibraryTests {
    @Test("the reader's libxml2 calls are the loader's, in this program; the loader opened libxml2")
    func callsGoThroughTheLoader() throws {
        let document = Data(#"<rss version="2.0"><channel><title>Loaded</title></channel></rss>"#.utf8)
        let root = try XMLTree.read(document)
        #expect(root.child("", "channel")?.childText("", "title") == "Loaded")
        #expect(tidings_xml_load_error() == nil)
        #if os(Linux)
            // Linked to libxml2 (the old way), the function would be in libxml2's file.
            let function: @convention(c) (xmlParserCtxtPtr?, UnsafePointer<CChar>?, Int32, Int32) -> Int32 =
                xmlParseChunk
            let address = UInt(bitPattern: unsafeBitCast(function, to: UnsafeRawPointer.self))
            let file = try #require(try Self.mappedFile(containing: address))
            #expect(!file.contains("libxml2"), "xmlParseChunk is in \(file)")
            #expect(try Self.maps().contains("libxml2"))
        #endif
    }

    /// This process's mappings, read to the end (the file's size says 0).
    static func maps() throws -> String {
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps"))
        defer { try? file.close() }
        return String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
    }

    /// The file mapped at `address` in this process.
    static func mappedFile(containing address: UInt) throws -> String? {
        for line in try maps().split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            let range = fields.first?.split(separator: "-").compactMap { UInt($0, radix: 16) } ?? []
            guard range.count == 2, range[0] <= address, address < range[1] else { continue }
            return fields.count > 5 ? fields[5...].joined(separator: " ") : ""
        }
        return nil
    }
}
