import Feed
import Foundation

/// An interactive session's automatic refresh: every `refresh-interval` minutes (a setting read
/// at each tick, so a change applies at once), the feeds whose own pace allows it are refreshed
/// in the background, and what arrived is posted for the next prompt.
enum AutoRefresh {
    /// Runs until cancelled. `started` is when the session began: the first refresh comes an
    /// interval after it.
    static func run(
        feeds: FeedService, settings: any SettingsStoring, notices: BackgroundNotices,
        now: @escaping @Sendable () -> Date = Date.init
    ) async {
        var last = now()
        while !Task.isCancelled {
            let minutes = Double(await settings.value("set.refresh-interval") ?? "") ?? 0
            let interval = minutes * 60
            // Ticks short enough to keep to a short interval, and to notice a change of it.
            let tick = interval > 0 ? min(max(interval / 4, 0.25), 15) : 15
            do {
                try await Task.sleep(for: .seconds(tick))
            } catch {
                return
            }
            guard interval > 0, now().timeIntervalSince(last) >= interval else { continue }
            last = now()
            // A feed refreshed less than an interval ago (by hand) waits; the slack lets one
            // refreshed exactly an interval ago through.
            if let summary = try? await feeds.refresh(due: max(0, interval - tick)), !summary.cancelled {
                notices.post(summary)
            }
        }
    }
}
