/// A feed's tag (newsboat's model), which is also how OPML folders are kept: a folder path is
/// one tag, its folders joined by `/` (`Tech/Swift` for a feed in folder Swift inside folder
/// Tech), a `/` or `\` inside a folder's name escaped with `\`. A tag stands for its sub-folders
/// too: listing `Tech` takes the feeds tagged `Tech/Swift`.
public enum FeedTag {
    /// The longest a tag may be, in characters.
    public static let maximumLength = 200

    /// The tag of a folder path, outermost first; `nil` for the top level (no folders).
    public static func tag(folders: [String]) -> String? {
        let names = folders.map { $0.trimmedWhitespace }.filter { !$0.isEmpty }
        guard !names.isEmpty else { return nil }
        return names.map(escaped).joined(separator: "/")
    }

    /// The folder path a tag stands for, outermost first.
    public static func folders(of tag: String) -> [String] {
        var folders: [String] = []
        var current = ""
        var escaping = false
        for character in tag {
            if escaping {
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "/" {
                folders.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        folders.append(current)
        return folders.filter { !$0.isEmpty }
    }

    /// Why `text` cannot be a tag (empty, too long, a control character), or `nil` when it can.
    public static func problem(with text: String) -> String? {
        if text.trimmedWhitespace.isEmpty { return "a tag cannot be empty" }
        if text.count > maximumLength { return "a tag holds at most \(maximumLength) characters" }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a tag cannot hold control characters"
        }
        if folders(of: text).isEmpty { return "a tag needs a name between its slashes" }
        return nil
    }

    /// `text` as a tag: surrounding white space and empty folder names dropped (`/Tech//Swift/`
    /// is `Tech/Swift`).
    public static func normalized(_ text: String) -> String {
        tag(folders: folders(of: text.trimmedWhitespace)) ?? ""
    }

    private static func escaped(_ name: String) -> String {
        var output = ""
        for character in name {
            if character == "/" || character == "\\" { output.append("\\") }
            output.append(character)
        }
        return output
    }
}

/// A tag with how many feeds carry it and their articles.
public struct TagSummary: Sendable, Hashable {
    public var tag: String
    /// The feeds tagged with it or with a tag inside it.
    public var feeds: Int
    public var counts: ArticleCounts

    public init(tag: String, feeds: Int, counts: ArticleCounts) {
        self.tag = tag
        self.feeds = feeds
        self.counts = counts
    }
}
