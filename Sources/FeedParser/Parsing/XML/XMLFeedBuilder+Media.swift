import Foundation
import Markup
import Models

/// Podcast and video feeds: the iTunes namespace (summary, subtitle, image, duration, episode,
/// season) and Media RSS (`media:content`, `media:thumbnail`, `media:description`, also
/// inside `media:group`, where YouTube's channel feeds carry each video's description). Each
/// stands in for a core field the feed leaves out (`XMLFeedBuilder.parsedItem(_:)`).
extension XMLFeedBuilder {
    /// Media RSS `content` and `thumbnail` become enclosures (a URL already attached is not
    /// repeated, only completed); a thumbnail's type is taken to be an image. A thumbnail, or
    /// else an image `content`, is the item's image; a `content`'s `duration` its duration.
    mutating func media(_ attributes: SAXAttributes, isThumbnail: Bool) {
        guard let href = attributes.value(names.url), let url = resolve(href) else { return }
        let medium = attributes.value(names.medium)?.trimmedWhitespace.lowercased()
        let type = attributes.value(names.type) ?? (isThumbnail ? "image/*" : medium.map { "\($0)/*" })
        let isImage = isThumbnail || medium == "image" || type?.lowercased().hasPrefix("image/") == true
        guard item != nil else {
            // The channel's own: its image, when it has no other.
            if isImage, channel.thumbnail == nil { channel.thumbnail = url }
            return
        }
        item?.enclosures.appendMerging(
            Enclosure(
                url: url, mimeType: type,
                length: attributes.value(names.fileSize).flatMap { Int64($0.trimmedWhitespace) }))
        if isThumbnail {
            if item?.thumbnail == nil { item?.thumbnail = url }
        } else if isImage, item?.mediaImage == nil {
            item?.mediaImage = url
        }
        if item?.mediaDuration == nil, let duration = attributes.value(names.duration) {
            item?.mediaDuration = MediaDuration.seconds(duration)
        }
    }

    /// `itunes:image href`: the episode's image in an item, the cover art (and icon, when the
    /// feed has no other) in the channel.
    mutating func itunesImage(_ attributes: SAXAttributes) {
        guard let href = attributes.value(names.href), let url = resolve(href) else { return }
        if item != nil {
            if item?.image == nil { item?.image = url }
        } else {
            if channel.icon == nil { channel.icon = url }
            if channel.image == nil { channel.image = url }
        }
    }

    /// RSS's channel `<image><url>` and Atom's `logo`: the feed's image, and its icon when it
    /// has no other.
    mutating func channelImage(_ value: String) {
        guard !value.isEmpty, let url = resolve(value) else { return }
        if channel.icon == nil { channel.icon = url }
        if channel.logo == nil { channel.logo = url }
    }

    /// The iTunes text fields and `media:description`, the first of each kept.
    mutating func podcastField(_ element: FeedElement, value: String) {
        let inItem = item != nil
        switch element {
        case .itunesSummary: set(\.itunesSummary, value.nonEmpty, inItem: inItem, onlyIfEmpty: true)
        case .itunesSubtitle: set(\.itunesSubtitle, value.nonEmpty, inItem: inItem, onlyIfEmpty: true)
        case .mediaDescription: set(\.mediaDescription, value.nonEmpty, inItem: inItem, onlyIfEmpty: true)
        case .itunesDuration: set(\.duration, MediaDuration.seconds(value), inItem: inItem, onlyIfEmpty: true)
        case .itunesEpisode: set(\.episode, MediaDuration.count(value), inItem: inItem, onlyIfEmpty: true)
        case .itunesSeason: set(\.season, MediaDuration.count(value), inItem: inItem, onlyIfEmpty: true)
        default: break
        }
    }
}

/// The numbers podcast feeds write as text.
enum MediaDuration {
    /// A duration in whole seconds: `HH:MM:SS`, `MM:SS` or seconds (`itunes:duration`, Media
    /// RSS `duration`), a fraction of a second dropped; `nil` for anything else, a negative
    /// number, or one too large to be a duration.
    static func seconds(_ text: String) -> Int? {
        var parts = text.trimmedWhitespace.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let last = parts.last else { return nil }
        // A fraction of a second (`12.5`, `01:02:03.250`) is dropped.
        if let dot = last.firstIndex(of: "."), last[last.index(after: dot)...].allSatisfy(\.isASCIIDigit) {
            parts[parts.count - 1] = last[..<dot]
        }
        var total = 0
        for part in parts {
            // Nine digits at most per part: three parts never overflow.
            guard !part.isEmpty, part.count <= 9, part.allSatisfy(\.isASCIIDigit), let value = Int(part) else {
                return nil
            }
            total = total * 60 + value
        }
        return total
    }

    /// A count that is not negative (`itunes:episode`, `itunes:season`); `nil` otherwise.
    static func count(_ text: String) -> Int? {
        let digits = text.trimmedWhitespace
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(digits)
    }
}

extension Character {
    /// Whether the character is one of the ASCII digits 0-9.
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
