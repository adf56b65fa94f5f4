public import Foundation

/// This installation's random id, created once in the home directory and read on every later
/// run, so its rollout buckets never change.
public enum InstallationID {
    /// The id stored in `installation-id` in the `home` directory, created when missing.
    ///
    /// - Throws: `ConfigError.installationIDUnavailable` when the file can be neither read
    ///   nor created.
    public static func loadOrCreate(home: URL) throws(ConfigError) -> String {
        try loadOrCreate(fileURL: home.appendingPathComponent("installation-id", isDirectory: false))
    }

    /// The id stored in `fileURL`, created (a random UUID, written atomically) when the file
    /// is missing or holds no id.
    ///
    /// - Throws: `ConfigError.installationIDUnavailable`.
    public static func loadOrCreate(fileURL: URL) throws(ConfigError) -> String {
        if let data = try? Data(contentsOf: fileURL) {
            let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty, !text.contains(where: \.isNewline) { return text }
        }
        let id = UUID().uuidString.lowercased()
        do {
            try AtomicFile.write(Data((id + "\n").utf8), to: fileURL)
        } catch {
            throw .installationIDUnavailable(location: fileURL.path, detail: error.localizedDescription)
        }
        return id
    }
}
