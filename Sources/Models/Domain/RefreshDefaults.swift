/// The refresh settings a remote configuration may change, as they are when it says nothing:
/// stated here once, for the bundled configuration and for an app that uses Feed without one.
public enum RefreshDefaults {
    /// How many feeds refresh at once.
    public static let maxConcurrentRefreshes = 8
    /// The longest a server's `Retry-After` (or a 429/503 date) may defer a feed: one day.
    public static let maxRetryAfterMinutes = 1440

    /// `maxRetryAfterMinutes` as a duration.
    public static var maxRetryAfter: Duration { .seconds(maxRetryAfterMinutes * 60) }
}
