public import Foundation
import Models

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
    public static func retryAfter(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.allSatisfy(\.isASCIIDigit) {
            // More digits than an Int holds is a wait past any horizon: the longest there is.
            return .seconds(Int(value) ?? Int.max)
        }
        guard let date = RFC822.date(from: value) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSince(now) * 1000)))
    }
}

extension Character {
    /// 0 to 9, and nothing else that Unicode calls a digit.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
