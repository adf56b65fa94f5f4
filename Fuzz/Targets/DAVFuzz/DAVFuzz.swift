import Foundation

@testable import Chores
@testable import Markup

/// libFuzzer entry point for the WebDAV answers a CalDAV server sends: `DAVMultistatus` (and
/// under it `XMLTree`) on any bytes.
///
/// Invariants: nothing crashes or hangs; a multistatus that reads has a non-empty href in
/// every response, and reading the same bytes twice gives the same result.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzDAV(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: start, count: count)
    guard let status = try? DAVMultistatus(data) else { return 0 }
    guard status.responses.allSatisfy({ !$0.href.isEmpty }) else { fatalError("a response without an href") }
    guard (try? DAVMultistatus(data)) == status else { fatalError("two readings differ") }
    return 0
}
