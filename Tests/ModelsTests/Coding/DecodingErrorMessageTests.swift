import Foundation
import Models
import Testing

private struct FeedPayload: Decodable {
    struct Item: Decodable {
        var id: String
        var datePublished: String
    }

    var items: [Item]
}

@Suite("Readable decoding errors")
struct DecodingErrorMessageTests {
    private func message(decoding json: String) -> String? {
        do {
            _ = try JSONCoding.decoder().decode(FeedPayload.self, from: Data(json.utf8))
            return nil
        } catch let error as DecodingError {
            return error.readableDescription(keys: .snakeCase)
        } catch {
            return "unexpected \(error)"
        }
    }

    private func items(_ fourth: String) -> String {
        let good = #"{"id":"a","date_published":"2021-03-13T09:00:00Z"}"#
        return #"{"items":["# + [good, good, good, fourth].joined(separator: ",") + "]}"
    }

    @Test("a type mismatch names the path, the expected type and what was found")
    func typeMismatch() {
        #expect(
            message(decoding: items(#"{"id":"d","date_published":20210313}"#))
                == "items[3].date_published: expected String, found number")
    }

    @Test("a missing key names the object it is missing from")
    func missingKey() {
        #expect(message(decoding: items(#"{"id":"d"}"#)) == #"items[3]: missing key "date_published""#)
    }

    @Test("a null where a value is required says so")
    func nullValue() {
        #expect(
            message(decoding: items(#"{"id":null,"date_published":"x"}"#)) == "items[3].id: expected String, found null"
        )
    }

    @Test("a wrong container type reads as array or object")
    func wrongContainer() {
        #expect(message(decoding: #"{"items":{}}"#)?.hasPrefix("items: expected array") == true)
    }

    @Test("text that is not JSON at all is reported without a path")
    func notJSON() {
        let text = message(decoding: "<rss>")
        #expect(text?.hasPrefix("not valid JSON") == true)
        #expect(text?.contains("\n") == false)
    }

    @Test("a corrupt value deep inside names its path")
    func dataCorruptedInside() {
        let json = #"{"events":[{"at":"yesterday"}]}"#
        struct Events: Decodable {
            struct Event: Decodable { var at: Date }
            var events: [Event]
        }
        do {
            _ = try JSONCoding.decoder().decode(Events.self, from: Data(json.utf8))
            Issue.record("decoding should fail")
        } catch let error as DecodingError {
            #expect(error.readableDescription == #"events[0].at: expected an RFC 3339 date, found "yesterday""#)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("without a wire style the path shows the keys as decoded")
    func decodedKeys() {
        do {
            _ = try JSONCoding.decoder().decode(FeedPayload.self, from: Data(items(#"{"id":"d"}"#).utf8))
            Issue.record("decoding should fail")
        } catch let error as DecodingError {
            #expect(error.readableDescription == #"items[3]: missing key "datePublished""#)
            #expect(error.readableDescription(keys: .upperSnakeCase) == #"ITEMS[3]: missing key "DATE_PUBLISHED""#)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("paths render indices in brackets and keys with dots")
    func pathRendering() {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(stringValue: String) { self.stringValue = stringValue }
            init(intValue: Int) {
                self.stringValue = String(intValue)
                self.intValue = intValue
            }
        }
        #expect(DecodingError.pathDescription([]) == "(root)")
        #expect(DecodingError.pathDescription([Key(intValue: 0), Key(stringValue: "a")]) == "[0].a")
        #expect(
            DecodingError.pathDescription([Key(stringValue: "a"), Key(intValue: 2), Key(intValue: 5)]) == "a[2][5]")
    }
}
