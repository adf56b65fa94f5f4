import Foundation
import Models

/// The small JSON arrays stored in article columns (authors, categories, enclosures).
///
/// Written by hand, with a fixed key order, because the merge compares the stored text with
/// the incoming text to find what changed, and because `JSONEncoder` per row would dominate a
/// 100,000-article merge. An empty array is stored as NULL. Read back with `JSONDecoder`.
enum JSONColumn {
    static func encode(_ strings: [String]) -> String? {
        guard !strings.isEmpty else { return nil }
        var text = "["
        for (index, string) in strings.enumerated() {
            if index > 0 { text += "," }
            appendQuoted(string, to: &text)
        }
        return text + "]"
    }

    static func encode(_ authors: [Author]) -> String? {
        guard !authors.isEmpty else { return nil }
        var text = "["
        for (index, author) in authors.enumerated() {
            if index > 0 { text += "," }
            text += "{"
            var first = true
            for (key, value) in [("email", author.email), ("name", author.name), ("uri", author.uri)] {
                guard let value else { continue }
                text += first ? "\"\(key)\":" : ",\"\(key)\":"
                appendQuoted(value, to: &text)
                first = false
            }
            text += "}"
        }
        return text + "]"
    }

    static func encode(_ enclosures: [Enclosure]) -> String? {
        guard !enclosures.isEmpty else { return nil }
        var text = "["
        for (index, enclosure) in enclosures.enumerated() {
            if index > 0 { text += "," }
            text += "{"
            if let length = enclosure.length { text += "\"length\":\(length)," }
            if let type = enclosure.mimeType {
                text += "\"type\":"
                appendQuoted(type, to: &text)
                text += ","
            }
            text += "\"url\":"
            appendQuoted(enclosure.url.absoluteString, to: &text)
            text += "}"
        }
        return text + "]"
    }

    /// An episode's or video's media fields (`{"duration":…,"episode":…,"image":…,"season":…}`,
    /// the keys it has in that order); NULL when it has none.
    static func encode(media: Media) -> String? {
        guard media != Media() else { return nil }
        var parts: [String] = []
        if let duration = media.duration { parts.append("\"duration\":\(duration)") }
        if let episode = media.episode { parts.append("\"episode\":\(episode)") }
        if let image = media.image {
            var quoted = ""
            appendQuoted(image, to: &quoted)
            parts.append("\"image\":" + quoted)
        }
        if let season = media.season { parts.append("\"season\":\(season)") }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// The media fields of an article row; none for NULL or a value that cannot be read (a
    /// row another program wrote).
    static func decode(media text: String?) -> Media {
        guard let text else { return Media() }
        return (try? JSONDecoder().decode(Media.self, from: Data(text.utf8))) ?? Media()
    }

    /// The `media` column's fields.
    struct Media: Codable, Equatable {
        var duration: Int?
        var episode: Int?
        var image: String?
        var season: Int?
    }

    static func decode<T: Decodable>(_ type: [T].Type, from text: String?) -> [T] {
        guard let text else { return [] }
        return (try? JSONDecoder().decode(type, from: Data(text.utf8))) ?? []
    }

    private static func appendQuoted(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case let control where control.value < 0x20:
                text +=
                    "\\u" + String(repeating: "0", count: 4 - String(control.value, radix: 16).count)
                    + String(control.value, radix: 16)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
