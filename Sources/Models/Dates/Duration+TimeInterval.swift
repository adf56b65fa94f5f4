package import Foundation

extension Duration {
    /// The duration as seconds, for the `TimeInterval` APIs (request timeouts, dates).
    package var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
