import Foundation

/// One Fever answer, read leniently where servers differ and strictly where they must not:
/// ids and times come as numbers or as strings of digits (FreshRSS sends strings, Coldsweat
/// numbers), flags as 0/1, booleans or their strings; a required field that is missing or of
/// another kind is an error naming its path (`items[3].feed_id`).
struct FeverResponse {
    let object: [String: Any]

    /// Reads `body`: a JSON object with `api_version` and `auth: 1`.
    init(body: Data) throws(FeverError) {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        } catch {
            throw Self.describeNonJSON(body)
        }
        guard let object = parsed as? [String: Any] else {
            throw .notFever("a JSON \(Self.kind(of: parsed)), not an object")
        }
        guard object["api_version"] != nil else { throw .notFever("JSON without api_version") }
        guard let auth = Self.integer(object["auth"]), auth == 1 else {
            if object["auth"] == nil { throw .notFever("JSON without auth") }
            throw .unauthorized
        }
        self.object = object
    }

    /// Why `body` is not JSON, in a user's words: empty, an HTML page, cut off, or other bytes.
    private static func describeNonJSON(_ body: Data) -> FeverError {
        let text = body.prefix(512).drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if text.isEmpty { return .notFever("an empty answer") }
        if text.first == UInt8(ascii: "<") { return .notFever("an HTML or XML page (is the URL the API's endpoint?)") }
        if text.first == UInt8(ascii: "{") || text.first == UInt8(ascii: "[") {
            return .malformed("the JSON is cut off or invalid (\(body.count) bytes)")
        }
        return .notFever("\(body.count) bytes that are not JSON")
    }

    private static func kind(of value: Any) -> String {
        switch value {
        case is [Any]: "array"
        case is String: "string"
        case is NSNull: "null"
        default: "value"
        }
    }

    // MARK: Fields

    /// The array under `key`; `nil` when the server left it out.
    func array(_ key: String) throws(FeverError) -> [[String: Any]]? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        guard let array = value as? [Any] else { throw .malformed("\(key) is not a list") }
        var objects: [[String: Any]] = []
        objects.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            guard let element = element as? [String: Any] else { throw .malformed("\(key)[\(index)] is not an object") }
            objects.append(element)
        }
        return objects
    }

    /// A comma-separated id list (`unread_item_ids`), as a set; `nil` when left out.
    func idList(_ key: String) throws(FeverError) -> [Int64]? {
        guard let value = object[key], !(value is NSNull) else { return nil }
        return try Self.ids(value, path: key)
    }

    func integer(_ key: String) -> Int? { Self.integer(object[key]) }

    // MARK: Values

    /// An id: a non-negative integer, as a number or a string of digits.
    static func id(_ object: [String: Any], _ key: String, path: String) throws(FeverError) -> Int64 {
        guard let value = object[key], !(value is NSNull) else { throw .malformed("\(path).\(key) is missing") }
        guard let id = int64(value), id >= 0 else { throw .malformed("\(path).\(key) is not an id") }
        return id
    }

    /// Text, or "" when absent or null; a number is written out.
    static func text(_ object: [String: Any], _ key: String) -> String {
        switch object[key] {
        case let text as String: text
        case let number as NSNumber: number.stringValue
        default: ""
        }
    }

    /// A flag: 1/0, true/false, or their strings; absent is false.
    static func flag(_ object: [String: Any], _ key: String) -> Bool {
        switch object[key] {
        case let number as NSNumber: number.intValue != 0
        case let text as String: text == "1" || text.lowercased() == "true"
        default: false
        }
    }

    /// A Unix time in seconds; `nil` when absent, zero or unreadable.
    static func time(_ object: [String: Any], _ key: String) -> Date? {
        guard let value = object[key], let seconds = int64(value), seconds > 0 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// An http or https URL; anything else (a `javascript:` link, garbage) is none.
    static func webURL(_ object: [String: Any], _ key: String) -> URL? {
        guard let text = object[key] as? String, let url = URL(string: text.trimmingCharacters(in: .whitespaces)),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url
    }

    /// Ids as a comma-separated string (the protocol's form) or a JSON list.
    static func ids(_ value: Any, path: String) throws(FeverError) -> [Int64] {
        if let list = value as? [Any] {
            var ids: [Int64] = []
            for (index, element) in list.enumerated() {
                guard let id = int64(element), id >= 0 else { throw .malformed("\(path)[\(index)] is not an id") }
                ids.append(id)
            }
            return ids
        }
        if let number = value as? NSNumber, let id = int64(number) { return [id] }
        guard let text = value as? String else { throw .malformed("\(path) is not a list of ids") }
        var ids: [Int64] = []
        for part in text.split(separator: ",") {
            let trimmed = part.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            guard let id = Int64(trimmed), id >= 0 else { throw .malformed("\(path) holds \"\(trimmed.prefix(20))\", not an id") }
            ids.append(id)
        }
        return ids
    }

    private static func int64(_ value: Any) -> Int64? {
        switch value {
        case let number as NSNumber:
            let double = number.doubleValue
            guard double.rounded() == double, abs(double) < 9.0e15 else { return nil }
            return number.int64Value
        case let text as String:
            return Int64(text.trimmingCharacters(in: .whitespaces))
        default:
            return nil
        }
    }

    private static func integer(_ value: Any?) -> Int? {
        guard let value, let number = int64(value) else { return nil }
        return Int(exactly: number)
    }
}
