import Feed
import Foundation
import Testing

/// Dates follow the user's locale from LC_ALL, LC_TIME or LANG (swift-foundation on Linux reads
/// none of them itself), and articles without a date, or dated in the future, sort by the time
/// they arrived.
@Suite("tidings in the user's locale", .serialized)
struct LocaleTests {
    /// Two calendar days back (lists count days on the calendar): an hour over two days,
    /// unless that crosses into a third day (a run in the first hour after midnight).
    static let twoDaysAgo: Date = {
        let twoDays = Date().addingTimeInterval(-2 * 86_400)
        let hourMore = twoDays.addingTimeInterval(-3600)
        return Calendar.current.isDate(hourMore, inSameDayAs: twoDays) ? hourMore : twoDays
    }()
    static let nextYear = Date().addingTimeInterval(300 * 86_400)

    static func rfc822(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    static func feed() -> String {
        """
        <?xml version="1.0"?><rss version="2.0"><channel><title>Local</title>
        <item><title>Dated story</title><guid>a</guid><pubDate>\(rfc822(twoDaysAgo))</pubDate></item>
        <item><title>Undated story</title><guid>b</guid></item>
        <item><title>Future story</title><guid>c</guid><pubDate>\(rfc822(nextYear))</pubDate></item>
        </channel></rss>
        """
    }

    @Test(
        "item show and items speak the locale of LC_ALL, LC_TIME or LANG",
        arguments: [
            ("en_US.UTF-8", "2 days ago"), ("en_GB.UTF-8", "2 days ago"), ("de_DE.UTF-8", "vor 2 Tagen"),
            ("fr_FR.UTF-8", "il y a 2 j"), ("nl_NL.UTF-8", "2 dgn geleden"), ("ja_JP.UTF-8", "2 日前"),
        ])
    func locales(name: String, ago: String) async throws {
        try await withSiteAndHome { site, home in
            try Self.feed().write(to: site.appendingPathComponent("f.xml"), atomically: true, encoding: .utf8)
            #expect(try TidingsBinary.run(["--home", home.path, "-c", "feed add \(site.path)/f.xml"]).status == 0)
            let identifier = String(name.prefix { $0 != "." })
            let expected = DatePresentation(locale: Locale(identifier: identifier), timeZone: .current)
            for variable in ["LANG", "LC_TIME", "LC_ALL"] {
                var environment = ["LANG": "C", "LC_TIME": "", "LC_ALL": ""]
                environment[variable] = name
                let items = try TidingsBinary.run(["--home", home.path, "-c", "items"], environment: environment)
                // French spaces its words with no-break spaces.
                let plain = items.out.replacingOccurrences(of: "\u{A0}", with: " ").replacingOccurrences(
                    of: "\u{202F}", with: " ")
                let dated = plain.split(separator: "\n").first { $0.contains("Dated story") }
                #expect(dated?.contains(ago) == true, "\(variable)=\(name): \(items.out)")
                let show = try TidingsBinary.run(
                    ["--home", home.path, "--no-color", "-c", "item show 1"], environment: environment)
                #expect(show.out.contains("date:   \(expected.fullDate(Self.twoDaysAgo))"), "\(show.out)")
            }
        }
    }

    @Test("an undated article shows and sorts by its arrival; one dated next year sorts by arrival and shows its date")
    func undatedAndFutureArticles() async throws {
        try await withSiteAndHome { site, home in
            try Self.feed().write(to: site.appendingPathComponent("f.xml"), atomically: true, encoding: .utf8)
            #expect(try TidingsBinary.run(["--home", home.path, "-c", "feed add \(site.path)/f.xml"]).status == 0)
            let environment = ["LANG": "en_GB.UTF-8"]
            let items = try TidingsBinary.run(["--home", home.path, "-c", "items"], environment: environment)
            let rows = items.out.split(separator: "\n").dropFirst().filter { $0.contains("story") }.map(String.init)
            #expect(rows.count == 3, "\(items.out)")
            #expect(rows.last?.contains("Dated story") == true, "\(rows)")
            let undated = rows.first { $0.contains("Undated story") } ?? ""
            #expect(undated.contains("now"), "\(undated)")
            let future = rows.first { $0.contains("Future story") } ?? ""
            let shown = DatePresentation(locale: Locale(identifier: "en_GB"), timeZone: .current).shortDate(
                Self.nextYear)
            #expect(future.contains(shown), "\(future)")
            // A refresh with the date still ahead does not lift it to the top.
            #expect(try TidingsBinary.run(["--home", home.path, "-c", "feed refresh 1"]).status == 0)
            let again = try TidingsBinary.run(["--home", home.path, "-c", "items"], environment: environment)
            #expect(again.out == items.out)
        }
    }
}
