import Foundation

/// The signed-in user's account: a flat value read from, and written back to, the nested shape
/// the account API uses:
///
/// ```json
/// {"id":10,"contact_info":{"email":"jo@example.com"},"preferences":{"contact":{"newsletter":true}}}
/// ```
public struct Account: Sendable, Hashable, Codable, Identifiable {
    public var id: Int
    /// Where mail goes (`contact_info.email`).
    public var email: String
    /// Whether the user wants the newsletter (`preferences.contact.newsletter`).
    public var isSubscribedToNewsletter: Bool

    public init(id: Int, email: String, isSubscribedToNewsletter: Bool) {
        self.id = id
        self.email = email
        self.isSubscribedToNewsletter = isSubscribedToNewsletter
    }

    private enum CodingKeys: String, CodingKey {
        case id
        case contactInfo = "contact_info"
        case preferences
    }

    private enum ContactInfoKeys: String, CodingKey { case email }
    private enum PreferencesKeys: String, CodingKey { case contact }
    private enum ContactPreferencesKeys: String, CodingKey { case newsletter }

    /// Reads the nested API shape.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        let contactInfo = try container.nestedContainer(keyedBy: ContactInfoKeys.self, forKey: .contactInfo)
        email = try contactInfo.decode(String.self, forKey: .email)
        let preferences = try container.nestedContainer(keyedBy: PreferencesKeys.self, forKey: .preferences)
        let contact = try preferences.nestedContainer(keyedBy: ContactPreferencesKeys.self, forKey: .contact)
        isSubscribedToNewsletter = try contact.decode(Bool.self, forKey: .newsletter)
    }

    /// Writes the same nested shape back.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        var contactInfo = container.nestedContainer(keyedBy: ContactInfoKeys.self, forKey: .contactInfo)
        try contactInfo.encode(email, forKey: .email)
        var preferences = container.nestedContainer(keyedBy: PreferencesKeys.self, forKey: .preferences)
        var contact = preferences.nestedContainer(keyedBy: ContactPreferencesKeys.self, forKey: .contact)
        try contact.encode(isSubscribedToNewsletter, forKey: .newsletter)
    }
}

/// A person in the household, as the household API names its fields (`e-mail`, `registered`).
public struct HouseholdMember: Sendable, Hashable, Codable, Identifiable {
    public var id: Int
    /// The name shown in the app.
    public var name: String
    /// The member's e-mail address (`e-mail` on the wire).
    public var email: String?
    /// Whether the member has an account (`registered` on the wire).
    public var isRegistered: Bool

    private enum CodingKeys: String, CodingKey {
        case id
        case name
        case email = "e-mail"
        case isRegistered = "registered"
    }

    public init(id: Int, name: String, email: String? = nil, isRegistered: Bool) {
        self.id = id
        self.name = name
        self.email = email
        self.isRegistered = isRegistered
    }
}
