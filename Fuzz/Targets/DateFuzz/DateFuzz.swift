import Foundation
import Models

@testable import FeedParser

/// libFuzzer entry point for the date readers: `FeedDate` (both families and the broken
/// variants it rewrites), `RFC822` and `RFC3339`, on any text.
///
/// Invariants: nothing crashes, and any date read between the years 1 and 9999 is written by
/// `RFC3339.string(from:)` and `RFC822.string(from:)` as text that reads back to the same
/// second.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzDates(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    let rewritten = FeedDate.rfc822Form(of: text)
    let dates =
        [FeedDate.date(from: text), RFC822.date(from: text), RFC3339.date(from: text)]
        + [rewritten.flatMap { RFC822.date(from: $0) }]
    for date in dates.compactMap({ $0 }) {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite else { fatalError("\(text.debugDescription) reads as \(seconds) s") }
        // 0001-01-01 to 9999-12-31, the years both writers print with four digits.
        guard seconds >= -62_135_596_800, seconds < 253_402_300_800 else { continue }
        let whole = Date(timeIntervalSince1970: seconds.rounded(.down))
        for (name, written, reread) in [
            ("RFC 3339", RFC3339.string(from: date), RFC3339.date(from: RFC3339.string(from: date))),
            ("RFC 822", RFC822.string(from: date), RFC822.date(from: RFC822.string(from: date))),
        ] where reread != whole {
            fatalError(
                "\(text.debugDescription) reads as \(seconds) s, written in \(name) as \(written), which reads back as "
                    + "\(reread.map { "\($0.timeIntervalSince1970) s" } ?? "nothing")")
        }
    }
    return 0
}
