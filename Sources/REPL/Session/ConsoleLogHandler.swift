import Foundation
import Logging

/// Writes log records to standard error through `Console`, so that diagnostics pass the same
/// output boundary as everything else the program prints: `2026-11-23T09:00:00Z warning
/// tidings: message key=value`.
struct ConsoleLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let details = merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        let time = Date().formatted(.iso8601)
        Console.standard.err("\(time) \(event.level) \(label): \(event.message)\(details)")
    }
}
