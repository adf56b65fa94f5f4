import Config
import Foundation
import Logging
import Models
import Storage

/// The composition root: builds the concrete graph once from flags and environment. Nothing
/// else in the program constructs a database, a transport or a service.
struct AppEnvironment {
    /// Where the files are.
    let home: HomeLocation
    /// The open database.
    let database: AppDatabase
    /// The configuration in force.
    let config: AppConfig
    /// The persistent command history.
    let history: HistoryStore
    /// Diagnostics (to standard error, quiet unless `TIDINGS_LOG` asks for more).
    let logger: Logger

    /// Why the environment could not be built.
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    /// Creates the home directory, opens the database and loads the configuration.
    init(home: HomeLocation, logger: Logger) throws(SetupError) {
        self.home = home
        self.logger = logger
        do {
            try FileManager.default.createDirectory(at: home.directory, withIntermediateDirectories: true)
        } catch {
            throw SetupError(
                description: "cannot create the home directory \(home.directory.path): \(error.localizedDescription)")
        }
        do {
            database = try AppDatabase(path: home.databaseURL.path)
            config = try BundledConfig.load()
        } catch {
            throw SetupError(description: error.localizedDescription)
        }
        history = HistoryStore(fileURL: home.historyURL)
        logger.debug("opened database", metadata: ["path": "\(home.databaseURL.path)"])
    }

    /// The banner shown when the configuration's minimum version is above `appVersion`;
    /// `nil` when this version may run.
    func updateBanner(appVersion: SemanticVersion) -> String? {
        guard config.isUpdateRequired(appVersion: appVersion), let minimum = try? config.minimumVersion() else {
            return nil
        }
        return
            "*** Update required: this is Tidings \(appVersion), and the configuration requires \(minimum) or later. ***"
    }

    /// A logger writing to standard error at the level named by `TIDINGS_LOG` (default: warning).
    static func makeLogger(environment: [String: String]) -> Logger {
        var logger = Logger(label: "tidings") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = environment["TIDINGS_LOG"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        return logger
    }
}
