import FeedParser
import Foundation

/// libFuzzer entry point for the OPML reader: `OPML.subscriptions(in:)` on any bytes.
///
/// Invariants: the read never crashes, and a list that reads is written by
/// `OPML.document(title:subscriptions:)` into a document that reads back to the same feed URLs
/// (folders flatten to their outermost one, so only the URLs are compared).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOPML(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: start, count: count)
    guard let subscriptions = try? OPML.subscriptions(in: data), !subscriptions.isEmpty else { return 0 }
    let written = OPML.document(title: "Fuzz", subscriptions: subscriptions, created: Date(timeIntervalSince1970: 0))
    let reread: [OPMLSubscription]
    do {
        reread = try OPML.subscriptions(in: written)
    } catch {
        fatalError("the written list does not read back (\(error)):\n\(String(decoding: written, as: UTF8.self))")
    }
    guard Set(reread.map(\.feedURL)) == Set(subscriptions.map(\.feedURL)) else {
        fatalError(
            "the written list reads back as \(reread.map(\.feedURL)), not \(subscriptions.map(\.feedURL)):\n"
                + String(decoding: written, as: UTF8.self))
    }
    return 0
}
