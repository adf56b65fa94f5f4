import Accounts
import Chores
import Feed
import Foundation
import Synchronization

/// Lines that background work leaves for the user, shown before the next prompt (never while
/// a line is being edited).
final class BackgroundNotices: Sendable {
    private let state = Mutex(State())

    private struct State {
        var lines: [String] = []
        var lastFailure: String?
        /// The last failure posted for each feed account.
        var lastAccountFailure: [Int64: String] = [:]
    }

    init() {}

    /// The lines posted since the last call, oldest first.
    func take() -> [String] {
        state.withLock { state in
            defer { state.lines = [] }
            return state.lines
        }
    }

    /// Posts what an automatic refresh brought: `12 new: Swift.org 3, LWN 9`; nothing when it
    /// brought nothing.
    func post(_ summary: RefreshSummary) {
        let brought = summary.newItems - summary.rules.hidden
        guard brought > 0 else { return }
        state.withLock { $0.lines.append("\(brought) new: " + FeedCommands.arrivals(summary)) }
    }

    /// Posts what a background chore sync did: nothing when nothing moved, the summary when
    /// something did, a failure once until it changes or a sync succeeds (an offline session
    /// is not told at every change).
    func post(_ result: Result<ChoreSyncSummary, ChoreSyncError>) {
        state.withLock { state in
            switch result {
            case .success(let summary):
                state.lastFailure = nil
                guard summary != ChoreSyncSummary() else { return }
                state.lines.append("chores " + ChoreSyncCommands.output(summary).renderText())
            case .failure(let error):
                guard state.lastFailure != error.description else { return }
                state.lastFailure = error.description
                state.lines.append("chores not synced: \(error.description)")
            }
        }
    }

    /// Posts what a background sync of a feed account did: nothing when nothing moved, its
    /// line when something did, a failure once until it changes or a sync succeeds.
    func post(_ account: FeedAccount, _ result: Result<AccountSyncSummary, AccountError>) {
        state.withLock { state in
            switch result {
            case .success(let summary):
                state.lastAccountFailure[account.id] = nil
                guard summary.newItems > 0 || summary.marksSent > 0 || summary.feedsAdded > 0
                    || summary.feedsRemoved > 0 || summary.states != StateChanges()
                else { return }
                state.lines.append("account #\(account.id): " + AccountCommands.line(summary))
            case .failure(let error):
                let message = TerminalText.sanitized(error.errorDescription ?? "\(error)")
                guard state.lastAccountFailure[account.id] != message else { return }
                state.lastAccountFailure[account.id] = message
                state.lines.append("account #\(account.id) not synced: \(message)")
            }
        }
    }
}
