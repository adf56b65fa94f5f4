import Feed
import Foundation
import Models
import Synchronization

/// Where a session is in its reading: the list `items` last showed (a feed, a search, a page),
/// the article last shown, and what an empty line at the prompt continues (`next` after an
/// article, `more` after a page), as mail(1) reads on with Enter.
final class ReadingState: Sendable {
    /// A list as `items` showed it.
    struct Listing: Sendable, Equatable {
        var query: ArticleQuery
        var pageSize: Int
        var page: Int
        /// The list's first article on the page shown, where reading starts before any article
        /// of it has been read.
        var firstShown: ArticlePosition?
    }

    /// What Enter on an empty line does next.
    enum Continuation: Sendable, Equatable {
        case none
        /// The next unread article (`next`).
        case nextArticle
        /// The next page of the list (`more`).
        case nextPage
    }

    private struct State {
        var listing: Listing?
        var current: ArticlePosition?
        var continuation = Continuation.none
    }

    private let state = Mutex(State())

    /// The list reading moves through: the one `items` showed, else every unread article in
    /// `defaultOrder`.
    func listing(defaultOrder: ArticleOrder) -> Listing {
        state.withLock { $0.listing }
            ?? Listing(query: ArticleQuery(unreadOnly: true, order: defaultOrder), pageSize: 20, page: 1)
    }

    var hasListing: Bool { state.withLock { $0.listing != nil } }
    var current: ArticlePosition? { state.withLock { $0.current } }
    var continuation: Continuation { state.withLock { $0.continuation } }

    /// `items` showed `listing`: reading starts again at its page. Enter shows the next page
    /// when `hasMore`.
    func showed(_ listing: Listing, hasMore: Bool) {
        state.withLock {
            $0.listing = listing
            $0.current = nil
            $0.continuation = hasMore ? .nextPage : .none
        }
    }

    /// An article was shown: reading goes on after it.
    func read(_ position: ArticlePosition) {
        state.withLock {
            $0.current = position
            $0.continuation = .nextArticle
        }
    }

    /// Any other command ran: Enter does nothing again.
    func interrupted() { state.withLock { $0.continuation = .none } }

    /// Where `next` starts: after the article last shown, else just before the first article of
    /// the page shown (the position one id past it, in the list's order, comes before it).
    func start(of listing: Listing) -> ArticlePosition? {
        if let current { return current }
        guard let first = listing.firstShown else { return nil }
        let step: Int64 = listing.query.order == .newestFirst ? 1 : -1
        return ArticlePosition(sortDate: first.sortDate, id: first.id + step)
    }
}
