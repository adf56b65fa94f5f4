import Accounts
import Chores
import Config
import Feed
import Foundation
import Models
import Networking

/// What commands work with: the services and view models the composition root built, how to
/// show results, and a clock.
struct CommandContext: Sendable {
    let feeds: FeedService
    let tasks: TaskService
    /// Sharing the tasks through CalDAV.
    let choreSync: ChoreSyncService
    let config: ConfigProvider
    /// The version the minimum-version gate compares.
    let appVersion: SemanticVersion
    let display: Display
    /// Draws a transient progress line on a terminal (`nil` clears it).
    let progress: @Sendable (String?) -> Void
    /// Shows long text through the pager command given (the `pager` setting) when standard
    /// output is a terminal and the text is longer than the screen; returns whether it did (else
    /// the caller prints it).
    var page: @Sendable (String, _ pager: String) -> Bool = { _, _ in false }
    /// Opens a web address with the browser command given (the `browser` setting; `item open`).
    var openURL: @Sendable (URL, _ browser: String) throws -> Void = Browser.open
    /// Where settings and aliases are kept; `nil` where there is no database.
    var settings: (any SettingsStoring)? = nil

    /// The settings in force now (read when a command needs them, not by every command).
    func settingValues() async -> SettingValues {
        SettingValues(
            stored: (try? await settings?.all(prefix: "set.")) ?? [:], environment: ProcessInfo.processInfo.environment)
    }
    /// Feed accounts (`account …`); `nil` where there is no database.
    var accounts: AccountService? = nil
    /// Saves enclosures to files (`item download`); `nil` where no transport streams to a file.
    var downloader: FileDownloader? = nil
    /// Where `item download` saves without `--to` (see `DownloadFolder.defaultDirectory`).
    var downloadDirectory: URL? = nil
    /// Why the database this session opened cannot be used any more (deleted or replaced since);
    /// `nil` while it can.
    var databaseProblem: @Sendable () -> String? = { nil }
    /// Why the configured config URL cannot be fetched (a malformed `$TIDINGS_CONFIG_URL`).
    var configURLProblem: String? = nil
    /// Where the session is in its reading (`next`, `prev`, `more`, Enter).
    var reading = ReadingState()
    let now: @Sendable () -> Date
    /// The user's calendar (time zone included).
    let calendar: Calendar

    /// `2026-11-23 12:00` in the user's time zone (the last sync of chores and accounts).
    func clock(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0)
    }

    /// A date argument (`today`, `2026-11-21`, `-2w`, …) for `option`.
    func parseDate(_ text: String, _ option: String) throws -> Date {
        do {
            return try DateArgument.parse(text, now: now(), calendar: calendar)
        } catch {
            throw CommandError.usage("\(option): \(error.description)")
        }
    }
}

extension CommandError {
    /// A feed error as the user sees it.
    init(_ error: FeedError) {
        let code: String
        switch error {
        case .notFound: code = "not_found"
        case .alreadySubscribed: code = "already_subscribed"
        case .invalidURL: code = "invalid_url"
        case .parse, .opml, .noFeedFound: code = "not_a_feed"
        case .cancelled: code = "interrupted"
        case .storage: code = "storage"
        case .file: code = "file_error"
        case .invalidTag, .invalidRule: code = "usage"
        case .managedByAccount: code = "managed_by_account"
        default: code = "fetch_failed"
        }
        self.init(code: code, message: error.errorDescription ?? "\(error)", exitStatus: error == .cancelled ? 130 : 1)
    }
}

extension JSONValue {
    /// A string, or null.
    static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
    /// A URL's text, or null.
    static func url(_ value: URL?) -> JSONValue { value.map { .string($0.absoluteString) } ?? .null }
    /// An RFC 3339 UTC date, or null.
    static func date(_ value: Date?) -> JSONValue { value.map { .string(RFC3339.string(from: $0)) } ?? .null }
    static func int(_ value: some BinaryInteger) -> JSONValue { .integer(Int(value)) }
}
