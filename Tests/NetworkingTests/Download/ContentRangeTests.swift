import Networking
import Testing

@Suite("Content-Range")
struct ContentRangeTests {
    @Test("a 206's range and a 416's length are read; the length may be unknown")
    func reads() {
        #expect(ContentRange("bytes 100-199/1000") == ContentRange(first: 100, last: 199, length: 1000))
        #expect(ContentRange("bytes 0-0/1") == ContentRange(first: 0, last: 0, length: 1))
        #expect(ContentRange("bytes 5-9/*") == ContentRange(first: 5, last: 9, length: nil))
        #expect(ContentRange("bytes */1000") == ContentRange(first: nil, last: nil, length: 1000))
        #expect(ContentRange(" Bytes 1-2/3 ") == ContentRange(first: 1, last: 2, length: 3))
    }

    @Test(
        "anything else is not a byte range",
        arguments: [
            "", "bytes", "bytes */*", "items 1-2/3", "bytes 1-2", "bytes 2-1/10", "bytes 0-10/10", "bytes -1-2/3",
            "bytes 1-2/3/4", "bytes +1-2/3", "bytes 1 - 2/3", "bytes 99999999999999999999-1/2",
        ])
    func refuses(text: String) {
        #expect(ContentRange(text) == nil)
    }
}
