/// An analytics event: a name and its parameters. Open for new events: each is its own type,
/// so adding one edits no central list.
public protocol AnalyticsEvent: Sendable {
    /// The event's name (`article_opened`).
    var name: String { get }
    var parameters: [String: String] { get }
}

extension AnalyticsEvent {
    /// No parameters by default.
    public var parameters: [String: String] { [:] }
}

/// Where analytics events go (a vendor SDK, a log, a test's recorder).
public protocol AnalyticsSink: Sendable {
    func send(_ event: any AnalyticsEvent)
}

/// Drops every event.
public struct NoAnalytics: AnalyticsSink {
    public init() {}
    /// Drops the event.
    public func send(_ event: any AnalyticsEvent) {}
}

/// The article list was shown.
public struct ArticleListViewed: AnalyticsEvent {
    /// How many articles it showed.
    public var count: Int
    /// `article_list_viewed`.
    public var name: String { "article_list_viewed" }
    /// The count.
    public var parameters: [String: String] { ["count": String(count)] }
}

/// An article was opened.
public struct ArticleOpened: AnalyticsEvent {
    public var id: Int64
    public init(id: Int64) { self.id = id }
    /// `article_opened`.
    public var name: String { "article_opened" }
    /// The id.
    public var parameters: [String: String] { ["id": String(id)] }
}

/// Feeds were refreshed.
public struct FeedsRefreshed: AnalyticsEvent {
    /// How many feeds were asked for.
    public var feeds: Int
    /// How many articles were new.
    public var newItems: Int
    /// `feeds_refreshed`.
    public var name: String { "feeds_refreshed" }
    /// The counts.
    public var parameters: [String: String] { ["feeds": String(feeds), "new_items": String(newItems)] }
}

/// What a front should do next; the view model states the intent, the front decides how.
public enum NavigationIntent: Sendable, Hashable {
    /// Show one article.
    case showArticle(id: Int64)
    /// Open a link in a browser.
    case openLink(String)
    /// Offer to turn an article into a task.
    case makeTask(articleID: Int64)
}

/// Receives navigation intents from view models.
public protocol Router: Sendable {
    func route(_ intent: NavigationIntent) async
}
