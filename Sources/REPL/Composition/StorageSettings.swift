import Foundation
import Storage

/// The REPL's settings and aliases kept in the database (`setting`), so that the commands stay
/// free of Storage: they only know `SettingsStoring`.
struct StorageSettings: SettingsStoring {
    let repository: SettingRepository

    func all(prefix: String) async throws -> [String: String] { try await repository.all(prefix: prefix) }
    func value(_ key: String) async -> String? { try? await repository.value(key) }
    func set(_ key: String, to value: String?) async throws { try await repository.set(key, to: value) }
}
