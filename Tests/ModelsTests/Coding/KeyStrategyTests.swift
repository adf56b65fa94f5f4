import Foundation
import Models
import Testing

/// A household record in the shape a legacy UPPER_SNAKE API sends, nested two levels deep.
private struct Household: Codable, Equatable {
    struct Contact: Codable, Equatable {
        var fullName: String
        var phoneNumber: String
    }

    var householdName: String
    var primaryContact: Contact
    var otherContacts: [Contact]
}

/// An article row as a snake_case API sends it.
private struct ArticlePayload: Codable, Equatable {
    var articleTitle: String
    var datePublished: Date
    var feedId: Int
}

@Suite("JSON key strategies")
struct KeyStrategyTests {
    @Test("convertFromSnakeCase and convertToSnakeCase map snake_case APIs both ways")
    func snakeCase() throws {
        let json = #"{"article_title":"Hello","date_published":"2021-03-13T09:00:00Z","feed_id":7}"#
        let payload = try JSONCoding.decoder().decode(ArticlePayload.self, from: Data(json.utf8))
        #expect(
            payload
                == ArticlePayload(
                    articleTitle: "Hello", datePublished: Date(timeIntervalSince1970: 1_615_626_000), feedId: 7))
        #expect(String(decoding: try JSONCoding.encoder().encode(payload), as: UTF8.self) == json)
    }

    @Test("UPPER_SNAKE keys decode into camelCase properties at every depth")
    func upperSnakeDecodes() throws {
        let json = """
            {"HOUSEHOLD_NAME":"The Smiths",
             "PRIMARY_CONTACT":{"FULL_NAME":"Jo Smith","PHONE_NUMBER":"555-0100"},
             "OTHER_CONTACTS":[{"FULL_NAME":"Sam Smith","PHONE_NUMBER":"555-0101"}]}
            """
        let decoder = JSONCoding.decoder(keys: .convertFromUpperSnakeCase)
        let household = try decoder.decode(Household.self, from: Data(json.utf8))
        #expect(household.householdName == "The Smiths")
        #expect(household.primaryContact == .init(fullName: "Jo Smith", phoneNumber: "555-0100"))
        #expect(household.otherContacts == [.init(fullName: "Sam Smith", phoneNumber: "555-0101")])
    }

    @Test("UPPER_SNAKE encoding writes nested keys and round-trips exactly")
    func upperSnakeEncodes() throws {
        let household = Household(
            householdName: "The Smiths", primaryContact: .init(fullName: "Jo Smith", phoneNumber: "555-0100"),
            otherContacts: [.init(fullName: "Sam Smith", phoneNumber: "555-0101")])
        let data = try JSONCoding.encoder(keys: .convertToUpperSnakeCase).encode(household)
        let expected =
            #"{"HOUSEHOLD_NAME":"The Smiths","OTHER_CONTACTS":[{"FULL_NAME":"Sam Smith","PHONE_NUMBER":"555-0101"}],"PRIMARY_CONTACT":{"FULL_NAME":"Jo Smith","PHONE_NUMBER":"555-0100"}}"#
        #expect(String(decoding: data, as: UTF8.self) == expected)
        #expect(
            try JSONCoding.decoder(keys: .convertFromUpperSnakeCase).decode(Household.self, from: data) == household)
    }

    @Test(
        "UPPER_SNAKE conversion rules",
        arguments: [
            ("FULL_NAME", "fullName"), ("NAME", "name"), ("A_B_C", "aBC"), ("_PRIVATE_KEY", "_privateKey"),
            ("TRAILING_", "trailing_"), ("alreadyCamel", "alreadyCamel"), ("__", "__"), ("ID2_VALUE", "id2Value"),
        ])
    func upperSnakeToCamel(input: String, expected: String) {
        #expect(UpperSnakeCase.camelCase(fromUpperSnake: input) == expected)
    }

    @Test(
        "camelCase to UPPER_SNAKE conversion rules",
        arguments: [
            ("fullName", "FULL_NAME"), ("name", "NAME"), ("articleURL", "ARTICLE_URL"), ("urlString", "URL_STRING"),
            ("URLString", "URL_STRING"), ("feed2Title", "FEED2_TITLE"),
        ])
    func camelToUpperSnake(input: String, expected: String) {
        #expect(UpperSnakeCase.upperSnake(fromCamelCase: input) == expected)
    }

    @Test("explicit CodingKeys rename e-mail and registered")
    func codingKeysRenames() throws {
        let json = #"{"e-mail":"jo@example.com","id":3,"name":"Jo","registered":true}"#
        let member = try JSONDecoder().decode(HouseholdMember.self, from: Data(json.utf8))
        #expect(member == HouseholdMember(id: 3, name: "Jo", email: "jo@example.com", isRegistered: true))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(member), as: UTF8.self) == json)
    }

    @Test("a flat Account decodes from nested JSON and encodes back byte for byte")
    func nestedFlattening() throws {
        let json = #"{"contact_info":{"email":"jo@example.com"},"id":10,"preferences":{"contact":{"newsletter":true}}}"#
        let account = try JSONDecoder().decode(Account.self, from: Data(json.utf8))
        #expect(account == Account(id: 10, email: "jo@example.com", isSubscribedToNewsletter: true))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(account) == Data(json.utf8))
    }

    @Test("a nested key missing from the Account payload is reported with its path")
    func nestedMissingKey() {
        let json = #"{"id":10,"contact_info":{"email":"jo@example.com"},"preferences":{"contact":{}}}"#
        do {
            _ = try JSONDecoder().decode(Account.self, from: Data(json.utf8))
            Issue.record("decoding should fail")
        } catch let error as DecodingError {
            #expect(error.readableDescription == #"preferences.contact: missing key "newsletter""#)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
