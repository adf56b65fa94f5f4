public import Foundation

/// When and how long to wait before trying a request again.
///
/// Only idempotent requests are retried, and only after a transient failure (timeouts,
/// connection failures, 408, 429, 500, 502, 503, 504). The wait doubles from `baseDelay` up to
/// `maxDelay` with full jitter, unless the server sent `Retry-After` (seconds or an HTTP date),
/// which is honoured up to `maxRetryAfter`. The sleep and the randomness are injected, so tests
/// never wait.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included (1 means no retry).
    public var maxAttempts: Int
    /// The wait before the first retry.
    public var baseDelay: Duration
    /// The longest computed wait.
    public var maxDelay: Duration
    /// The longest wait a `Retry-After` can ask for; a longer one fails at once instead.
    public var maxRetryAfter: Duration
    /// Waits; `Task.sleep` by default.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// A number in 0..<1 for the jitter; random by default.
    public var random: @Sendable () -> Double
    /// The current time, for `Retry-After` dates.
    public var now: @Sendable () -> Date

    /// Creates a policy; the defaults are 3 attempts, 0.5 s doubling up to 8 s, Retry-After up
    /// to 120 s.
    public init(
        maxAttempts: Int = 3, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(8),
        maxRetryAfter: Duration = .seconds(120),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.sleep = sleep
        self.random = random
        self.now = now
    }

    /// No retries at all.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// How long to wait before attempt `attempt + 1` after `error`, or `nil` to give up.
    public func delay(after error: NetworkError, attempt: Int, request: HTTPRequest) -> Duration? {
        guard attempt < maxAttempts, request.isIdempotent, error.isTransient else { return nil }
        if case .status(let response) = error,
            let retryAfter = Self.retryAfter(response.headers["Retry-After"], now: now())
        {
            return retryAfter <= maxRetryAfter ? retryAfter : nil
        }
        let exponential = baseDelay * Int(pow(2.0, Double(attempt - 1)).rounded())
        let capped = min(exponential, maxDelay)
        return capped * random()  // full jitter: anywhere up to the cap
    }

    /// `Retry-After` as a wait: delta-seconds or an HTTP date (RFC 9110 §10.2.3).
    static func retryAfter(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return .seconds(max(0, seconds)) }
        guard let date = HTTPDate.date(from: value) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSince(now) * 1000)))
    }
}

/// HTTP dates (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7) without a `DateFormatter`.
package enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    package static func date(from text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]),
            let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month + 1, day)
        (components.hour, components.minute, components.second) = (time[0], time[1], time[2])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? .gmt
        return calendar.date(from: components)
    }

    package static func string(from date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? .gmt
        let c = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(weekdays[(c.weekday ?? 1) - 1]), \(two(c.day)) \(months[(c.month ?? 1) - 1]) \(c.year ?? 1970) "
            + "\(two(c.hour)):\(two(c.minute)):\(two(c.second)) GMT"
    }
}
