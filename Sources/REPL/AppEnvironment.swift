import Accounts
import Chores
import Config
import DefaultTransport
import Feed
import Foundation
import Logging
import Models
import Networking
import Storage
import Store

/// The composition root: builds the concrete graph once from flags and environment (the
/// database in the home, the network transport, the config provider with its cache in the
/// database, the feed and task services). Nothing else in the program constructs a database,
/// a transport or a service; tests build it against a temporary home and an in-memory
/// transport.
struct AppEnvironment {
    let home: HomeLocation
    /// The open store (one SQLite file: feeds, articles, tasks, the config cache).
    let store: LocalStore
    let history: HistoryStore
    /// Diagnostics (to standard error, quiet unless `TIDINGS_LOG` asks for more).
    let logger: Logger
    let feeds: FeedService
    let tasks: TaskService
    /// Sharing the tasks through CalDAV.
    let choreSync: ChoreSyncService
    /// Feed accounts (a feed server that keeps the subscriptions).
    let accounts: AccountService
    let config: ConfigProvider
    /// Saves enclosures (`item download`): its own transport, whose timeout bounds silences, not
    /// whole transfers.
    let downloader: FileDownloader?
    /// Where downloads go without `--to`.
    let downloadDirectory: URL
    let now: @Sendable () -> Date
    let calendar: Calendar
    /// Why `$TIDINGS_CONFIG_URL` could not be used: reported where a fetch would use it
    /// (`config refresh`), while every other command runs on the cached or bundled config.
    var configURLProblem: String? = nil
    /// The database file's identity when it was opened.
    var databaseWatch: DatabaseFileWatch? = nil

    /// Why the environment could not be built.
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    /// Creates the home directory, opens the database, and builds the services. Reads the
    /// cached config; fetches nothing.
    static func make(
        home: HomeLocation, configURL flag: String?, environment: [String: String], logger: Logger,
        transport: (any HTTPTransport)? = nil, downloadTransport: (any HTTPStreaming)? = nil,
        now: @escaping @Sendable () -> Date = { Date() },
        calendar: Calendar = .autoupdatingCurrent
    ) async throws(SetupError) -> AppEnvironment {
        do {
            try PrivateFiles.prepareHome(home)
        } catch {
            throw SetupError(
                description: "cannot create the home directory \(home.directory.path): \(error.localizedDescription)")
        }
        let store: LocalStore
        let defaults: AppConfig
        let selection: ConfigURLSelection?
        let configURLProblem: String?
        let installation: String
        do {
            PrivateFiles.createDatabase(at: home.databaseURL)
            store = try LocalStore.open(path: home.databaseURL.path)
            defaults = try BundledConfig.load()
            (selection, configURLProblem) = try chooseConfigURL(
                flag: flag, environment: environment, defaults: defaults)
            installation = try InstallationID.loadOrCreate(home: home.directory)
        } catch {
            throw SetupError(description: error.localizedDescription)
        }
        PrivateFiles.tightenFiles(of: home)
        let config = await ConfigProvider.start(
            configURL: selection?.url, defaults: defaults,
            local: StorageConfigCache(repository: store.configCache),
            remote: HTTPConfigLoader(transport: transport ?? defaultTransport(), now: now),
            installationID: installation, now: now, activity: { logger.debug("config refresh: \($0)") })
        if let problem = config.cacheProblem { logger.warning("config cache: \(problem.localizedDescription)") }
        // The feeds' transport takes its bound on connections per host from the configuration in
        // force now (cached or bundled): a changed value applies from the next start.
        let transport = transport ?? defaultTransport(maxConnectionsPerHost: config.maxConnectionsPerHost)
        let feeds = FeedService(
            store: store,
            fetcher: HTTPFeedFetcher(transport: transport, now: now),
            now: now,
            maxConcurrentRefreshes: { config.maxConcurrentRefreshes ?? RefreshDefaults.maxConcurrentRefreshes },
            maxRetryAfter: { Self.minutes(config.maxRetryAfterMinutes ?? RefreshDefaults.maxRetryAfterMinutes) },
            retention: { [settings = StorageSettings(repository: store.settings)] in
                // The keep-items and keep-days settings (0, or none: keep all).
                let values = SettingValues(stored: (try? await settings.all(prefix: "set.")) ?? [:])
                return RetentionPolicy(
                    items: values["keep-items"].flatMap { Int($0) }, days: values["keep-days"].flatMap { Int($0) })
            }, indexesSearch: environment["TIDINGS_DEFER_SEARCH_INDEX"] != "1")
        let tasks = TaskService(store: store, now: now, calendar: calendar)
        let netrc = netrcURL(environment: environment)
        let choreSync = ChoreSyncService(
            store: store, transport: transport, credentials: .environmentAndNetrc(environment, netrc: netrc),
            calendar: calendar, now: now)
        let accounts = AccountService(
            store: store, transport: transport, credentials: .environmentAndNetrc(environment, netrc: netrc), now: now)
        let downloader = (downloadTransport ?? makeDefaultStreamingTransport()).map {
            FileDownloader(transport: $0)
        }
        logger.debug("opened database", metadata: ["path": "\(home.databaseURL.path)"])
        return AppEnvironment(
            home: home, store: store, history: HistoryStore(fileURL: home.historyURL), logger: logger,
            feeds: feeds, tasks: tasks, choreSync: choreSync, accounts: accounts, config: config, downloader: downloader,
            downloadDirectory: DownloadFolder.defaultDirectory(environment: environment), now: now,
            calendar: calendar,
            configURLProblem: configURLProblem, databaseWatch: DatabaseFileWatch(path: home.databaseURL.path))
    }

    /// `~/.netrc`: in `$HOME`, else in the user's home directory.
    static func netrcURL(environment: [String: String]) -> URL {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".netrc", isDirectory: false)
    }

    /// The network transport of this platform: the one place the program chooses it (the
    /// REPL's services and `tidings parse` both get it here). `maxConnectionsPerHost` is the
    /// config's value (the transport's default, 2, when none is given).
    static func defaultTransport(maxConnectionsPerHost: Int? = nil) -> any HTTPTransport {
        var configuration = TransportConfiguration()
        if let maxConnectionsPerHost { configuration.maxConnectionsPerHost = maxConnectionsPerHost }
        return makeDefaultTransport(configuration: configuration)
    }

    /// The config URL to fetch, and why `$TIDINGS_CONFIG_URL` could not be used (it matters only
    /// where a fetch would use it: the bundled default's URL stands in meanwhile).
    private static func chooseConfigURL(flag: String?, environment: [String: String], defaults: AppConfig)
        throws(ConfigError) -> (ConfigURLSelection?, String?)
    {
        do {
            return (try ConfigURLSelection.choose(flag: flag, environment: environment, bundled: defaults), nil)
        } catch {
            guard flag?.isEmpty != false, environment["TIDINGS_CONFIG_URL"]?.isEmpty == false else { throw error }
            let fallback = try ConfigURLSelection.choose(flag: nil, environment: [:], bundled: defaults)
            return (fallback, error.errorDescription ?? "\(error)")
        }
    }

    /// The settings and aliases kept in this graph's database.
    var settings: any SettingsStoring { StorageSettings(repository: store.settings) }

    /// Tab completion over this graph's services, told of other processes' commits by the
    /// database's data version.
    func completer() -> Completer {
        let (store, config) = (self.store, self.config)
        return Completer(
            feeds: feeds, tasks: tasks, dataVersion: { await store.dataVersion() },
            configKeys: { config.entries.map(\.key) })
    }

    /// What commands need, for one way of showing output.
    func context(
        display: Display, appVersion: SemanticVersion, progress: @escaping @Sendable (String?) -> Void = { _ in },
        page: @escaping @Sendable (String, String) -> Bool = { _, _ in false }
    ) -> CommandContext {
        CommandContext(
            feeds: feeds, tasks: tasks, choreSync: choreSync, config: config, appVersion: appVersion, display: display,
            progress: progress,
            page: page, settings: settings, accounts: accounts, downloader: downloader,
            downloadDirectory: downloadDirectory,
            databaseProblem: { [databaseWatch] in databaseWatch?.problem() },
            configURLProblem: configURLProblem, now: now, calendar: calendar)
    }

    /// A number of minutes from the configuration as a duration; a huge one saturates at a
    /// century instead of overflowing.
    static func minutes(_ minutes: Int) -> Duration {
        .seconds(60 * min(max(0, minutes), 100 * 525_600))
    }

    /// A logger writing to standard error at the level named by `TIDINGS_LOG` (default: warning).
    static func makeLogger(environment: [String: String]) -> Logger {
        var logger = Logger(label: "tidings") { label in ConsoleLogHandler(label: label) }
        logger.logLevel = environment["TIDINGS_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        return logger
    }
}
