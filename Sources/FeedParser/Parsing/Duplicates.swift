import Models

/// What counts as listed twice, for every format. Feeds repeat an enclosure (`<enclosure>` and
/// `<media:content>` for one file) and an author (`<author>` and `<dc:creator>` for one
/// person); a reader shows each once. These rules decide what an item shows: change them with
/// care.
extension Array where Element == Enclosure {
    /// Adds `enclosure` unless one with the same URL is listed. The first wins, completed by
    /// the later one's type and length where it has none.
    mutating func appendMerging(_ enclosure: Enclosure) {
        guard let index = firstIndex(where: { $0.url == enclosure.url }) else {
            append(enclosure)
            return
        }
        if self[index].mimeType == nil { self[index].mimeType = enclosure.mimeType }
        if self[index].length == nil { self[index].length = enclosure.length }
    }
}

extension Array where Element == Author {
    /// Adds `author` unless the same person is listed: one whose every field that both give is
    /// equal (e-mail addresses regardless of case), with at least one such field. The first
    /// wins, completed by the later one's fields where it has none.
    mutating func appendMerging(_ author: Author) {
        guard let index = firstIndex(where: { Self.isSamePerson($0, author) }) else {
            append(author)
            return
        }
        if self[index].name == nil { self[index].name = author.name }
        if self[index].email == nil { self[index].email = author.email }
        if self[index].uri == nil { self[index].uri = author.uri }
    }

    private static func isSamePerson(_ first: Author, _ second: Author) -> Bool {
        var shared = false
        for (one, other, caseless) in [
            (first.name, second.name, false), (first.email, second.email, true), (first.uri, second.uri, false),
        ] {
            guard let one, let other else { continue }
            guard caseless ? one.lowercased() == other.lowercased() : one == other else { return false }
            shared = true
        }
        return shared
    }
}
