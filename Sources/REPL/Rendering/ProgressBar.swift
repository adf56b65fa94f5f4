import Foundation
import Networking
import Synchronization

/// The line `item download` redraws in place on a terminal while bytes arrive:
/// `episode.mp3  42% [########          ] 12.3 MB of 29.1 MB  1.2 MB/s`. Updates come from the
/// transport's thread, many a second; the line is drawn for the first, then at most every
/// `interval`, and for the last byte.
final class ProgressBar: Sendable {
    private struct State {
        var started: ContinuousClock.Instant?
        var startBytes: Int64 = 0
        var drawn: ContinuousClock.Instant?
    }

    /// The least time between two drawings.
    static let interval = Duration.milliseconds(100)

    private let name: String
    private let draw: @Sendable (String) -> Void
    private let width: @Sendable () -> Int
    private let now: @Sendable () -> ContinuousClock.Instant
    private let state = Mutex(State())

    /// A bar for the file `name`, drawn with `draw` to fit `width()` columns, paced by `now`.
    init(
        name: String, width: @escaping @Sendable () -> Int,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        draw: @escaping @Sendable (String) -> Void
    ) {
        self.name = name
        self.width = width
        self.now = now
        self.draw = draw
    }

    /// Redraws the line for `progress` when it is time to.
    func update(_ progress: DownloadProgress) {
        let now = self.now()
        let (due, rate) = state.withLock { state -> (Bool, Double?) in
            let started = state.started ?? now
            if state.started == nil {
                state.started = now
                state.startBytes = progress.bytes
            }
            let last = progress.total.map { progress.bytes >= $0 } ?? false
            if let drawn = state.drawn, now - drawn < Self.interval, !last { return (false, nil) }
            state.drawn = now
            let elapsed = (now - started).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            // A rate over the first moments says little.
            return (true, seconds >= 0.2 ? Double(progress.bytes - state.startBytes) / seconds : nil)
        }
        if due { draw(Self.line(name: name, progress: progress, bytesPerSecond: rate, width: width())) }
    }

    /// The line for `progress` in `width` columns (one short of it: a line that fills the last
    /// column wraps on some terminals): the name is cut first, then the bar narrows.
    static func line(name: String, progress: DownloadProgress, bytesPerSecond: Double?, width: Int) -> String {
        var amount = bytes(progress.bytes)
        if let total = progress.total { amount += " of " + bytes(total) }
        if let bytesPerSecond { amount += "  " + bytes(Int64(bytesPerSecond)) + "/s" }
        let columns = max(10, width - 1)
        guard let total = progress.total, total > 0 else {
            return DisplayWidth.fit(name + "  " + amount, width: columns)
        }
        let fraction = min(1, max(0, Double(progress.bytes) / Double(total)))
        let opening = DisplayWidth.pad(String(Int(fraction * 100)) + "%", to: 4, right: true) + " ["
        let closing = "] " + amount
        let fixed = DisplayWidth.of(opening) + DisplayWidth.of(closing) + 2
        let nameWidth = min(DisplayWidth.of(name), max(8, columns - fixed - 12))
        let barWidth = min(30, max(0, columns - fixed - nameWidth))
        let filled = Int(fraction * Double(barWidth))
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: barWidth - filled)
        return DisplayWidth.fit(
            DisplayWidth.fit(name, width: nameWidth) + "  " + opening + bar + closing, width: columns)
    }

    /// `12.3 MB`: decimal units as `item show` gives sizes, with a tenth of a megabyte (a
    /// hundredth of a gigabyte) so that a bar's figures move.
    static func bytes(_ count: Int64) -> String {
        let value = Double(count)
        switch count {
        case ..<1000: return "\(count) B"
        case ..<1_000_000: return "\(count / 1000) KB"
        case ..<1_000_000_000: return String(format: "%.1f MB", value / 1e6)
        default: return String(format: "%.2f GB", value / 1e9)
        }
    }
}
