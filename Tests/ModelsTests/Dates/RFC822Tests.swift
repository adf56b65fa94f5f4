import Foundation
import Models
import Testing

@Suite("RFC 822 dates")
struct RFC822Tests {
    @Test("formats the HTTP date form in UTC, weekday included")
    func formatting() {
        #expect(RFC822.string(from: Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(RFC822.string(from: Date(timeIntervalSince1970: 784_111_777)) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(RFC822.string(from: Date(timeIntervalSince1970: -86_400)) == "Wed, 31 Dec 1969 00:00:00 GMT")
    }

    @Test("reads what it writes, and the common forms")
    func roundTrip() {
        for seconds in stride(from: -1_000_000_000, to: 4_000_000_000, by: 77_777_777) {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(RFC822.date(from: RFC822.string(from: date)) == date)
        }
        #expect(RFC822.date(from: "Sat, 13 Mar 2021 04:00:00 EST") == Date(timeIntervalSince1970: 1_615_626_000))
        #expect(RFC822.date(from: "not a date") == nil)
    }

    // Found by fuzz-dates: `0001-01-01T00:00:00Z` written as RFC 822 read back as 2001.
    @Test("a four-digit year is read as written, even before the year 100; only two digits are windowed")
    func fourDigitYears() {
        let yearOne = Date(timeIntervalSince1970: -62_135_596_800)
        #expect(RFC822.date(from: "Mon, 01 Jan 0001 00:00:00 GMT") == yearOne)
        #expect(RFC822.date(from: RFC822.string(from: yearOne)) == yearOne)
        #expect(RFC822.date(from: "Sat, 13 Mar 0021 09:00:00 GMT") != RFC822.date(from: "Sat, 13 Mar 21 09:00:00 GMT"))
        #expect(RFC822.date(from: "Sat, 13 Mar 21 09:00:00 GMT") == Date(timeIntervalSince1970: 1_615_626_000))
        #expect(RFC822.date(from: "Fri, 13 Mar 98 09:00:00 GMT") == RFC822.date(from: "Fri, 13 Mar 1998 09:00:00 GMT"))
    }
}
