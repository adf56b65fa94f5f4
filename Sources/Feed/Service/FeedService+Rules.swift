public import Models
internal import Storage
internal import Store

/// What rules did to the articles a refresh brought.
public struct RuleOutcome: Sendable, Hashable {
    /// Articles marked read.
    public var read = 0
    /// Articles hidden (deleted; they do not come back while their feed lists them).
    public var hidden = 0
    /// Rules whose regular expression ran too long on an article and were stopped for this
    /// run (see `RuleMatcher.budget`), by id.
    public var stopped: [Int64] = []

    public init(read: Int = 0, hidden: Int = 0, stopped: [Int64] = []) {
        self.read = read
        self.hidden = hidden
        self.stopped = stopped
    }
}

extension FeedService {
    /// Every rule, in the order they were added, with how many articles each has caught.
    public func rules() async throws(FeedError) -> [ArticleRule] {
        try await storage { () async throws(StorageError) in try await store.rules.all() }
    }

    /// Saves a rule for the articles of later refreshes.
    ///
    /// - Throws: `.invalidRule` for a pattern without a word or a regular expression that
    ///   does not compile (nothing is saved).
    public func addRule(_ rule: ArticleRule) async throws(FeedError) -> ArticleRule {
        _ = try RuleMatcher(rule)
        return try await storage { () async throws(StorageError) in try await store.rules.add(rule) }
    }

    public func removeRule(id: Int64) async throws(FeedError) {
        try await storage { () async throws(StorageError) in try await store.rules.remove(id: id) }
    }

    /// The stored articles `rule` would catch, newest first (ids), and how many there are:
    /// what adding it would have done, without doing it.
    public func articles(caughtBy rule: ArticleRule) async throws(FeedError) -> [Int64] {
        let matcher = try RuleMatcher(rule)
        var caught: [Int64] = []
        var last: Int64 = 0
        while true {
            let batch = try await storage { () async throws(StorageError) in try await store.rules.facts(after: last) }
            guard let end = batch.last?.id else { break }
            last = end
            caught += batch.filter { matcher.matches($0) && !(rule.action == .hide && $0.isStarred) }.map(\.id)
            if matcher.gaveUp { throw .invalidRule(Self.tooSlow(rule)) }
        }
        return caught.reversed()
    }

    /// Applies every rule to the articles with ids above `mark` (those a refresh brought): the
    /// first rule that catches an article decides; a starred article is never hidden.
    func applyRules(after mark: Int64) async throws(FeedError) -> RuleOutcome {
        var matchers: [RuleMatcher] = []
        // A rule that no longer compiles (written by another version) is skipped, not fatal.
        for rule in try await rules() { if let matcher = try? RuleMatcher(rule) { matchers.append(matcher) } }
        guard !matchers.isEmpty else { return RuleOutcome() }
        var (read, hide, caught): ([Int64], [Int64], [Int64: Int]) = ([], [], [:])
        var last = mark
        while true {
            let batch = try await storage { () async throws(StorageError) in try await store.rules.facts(after: last) }
            guard let end = batch.last?.id else { break }
            last = end
            for facts in batch {
                guard let matcher = matchers.first(where: { $0.matches(facts) }), let id = matcher.rule.id else {
                    continue
                }
                if matcher.rule.action == .hide && facts.isStarred { continue }
                caught[id, default: 0] += 1
                if matcher.rule.action == .read { read.append(facts.id) } else { hide.append(facts.id) }
            }
        }
        let stopped = matchers.filter(\.gaveUp).compactMap(\.rule.id)
        guard !read.isEmpty || !hide.isEmpty else { return RuleOutcome(stopped: stopped) }
        let (toRead, toHide, counts) = (read, hide, caught)
        let hidden = try await storage { () async throws(StorageError) in
            try await store.rules.apply(read: toRead, hide: toHide, caught: counts)
        }
        return RuleOutcome(read: toRead.count, hidden: hidden, stopped: stopped)
    }

    /// Why a rule was stopped, in words.
    static func tooSlow(_ rule: ArticleRule) -> String {
        "the regular expression \"\(rule.pattern)\" ran longer than \(RuleMatcher.budget) on one item and was "
            + "stopped: nested repetition such as (a+)+ can backtrack without end; write it without"
    }
}
