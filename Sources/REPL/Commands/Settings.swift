import Foundation

/// Where the REPL keeps settings and aliases between sessions.
protocol SettingsStoring: Sendable {
    /// Every stored key starting with `prefix`, with its value.
    func all(prefix: String) async throws -> [String: String]
    func value(_ key: String) async -> String?
    /// Sets `key`, or removes it when `value` is `nil`.
    func set(_ key: String, to value: String?) async throws
}

/// A user setting: its key, what it does, its default, and how a value is checked. Declared
/// once: `set` lists, shows, checks and documents them from here.
struct Setting: Sendable {
    let key: String
    let summary: String
    /// The value in force when nothing is set; `environment` first, where it names a variable.
    let fallback: String
    /// The environment variable that stands in before the default (`PAGER`).
    var environment: String? = nil
    /// The value as stored, or why it cannot be one.
    let check: @Sendable (String) -> Result<String, CommandError>

    /// Every setting, in the order `set` lists them.
    static let all: [Setting] = [
        Setting(
            key: "order", summary: "the order next reads every unread article in when no list is shown",
            fallback: "newest-first",
            check: choice(["newest-first", "oldest-first"])),
        Setting(
            key: "color", summary: "auto colours a terminal's output (unless --no-color or NO_COLOR); never never does",
            fallback: "auto", check: choice(["auto", "never"])),
        Setting(
            key: "pager", summary: "the command long articles are paged through", fallback: "less -R",
            environment: "PAGER", check: command),
        Setting(
            key: "browser",
            summary: "the command item open starts (%s stands for the address, else it is the last argument)",
            fallback: "xdg-open", environment: "BROWSER", check: command),
        Setting(
            key: "download-dir", summary: "where item download saves without --to (an absolute path, ~ allowed)",
            fallback: "~/Downloads", environment: "XDG_DOWNLOAD_DIR", check: absolutePath),
        Setting(
            key: "keep-items",
            summary:
                "how many articles a feed keeps, the newest (never a starred one); 0 keeps all; feed keep sets one feed's",
            fallback: "0", check: wholeNumber(atMost: 1_000_000)),
        Setting(
            key: "keep-days",
            summary:
                "for how many days read articles are kept (never a starred one); 0 keeps them; feed keep sets one feed's",
            fallback: "0", check: wholeNumber(atMost: 36_500)),
        Setting(
            key: "refresh-interval",
            summary:
                "minutes between refreshes while an interactive session is open (each feed still at its own pace); 0 is never",
            fallback: "0", check: minutes(atMost: 10_080)),
        Setting(
            key: "device-name",
            summary:
                "the name of this home or device, recorded with each chore done here (task history); shared through sync",
            fallback: hostName, check: deviceName),
    ]

    /// This machine's host name (`gethostname`), the default device name.
    static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "this home" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "this home" : name
    }()

    private static let deviceName: @Sendable (String) -> Result<String, CommandError> = { text in
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 64,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == ";" })
        else { return .failure(.usage("a name of 1 to 64 characters, without control characters or ;")) }
        return .success(trimmed)
    }

    static func named(_ key: String) -> Setting? { all.first { $0.key == key.lowercased() } }

    private static func choice(_ values: [String]) -> @Sendable (String) -> Result<String, CommandError> {
        { text in
            let lowered = text.lowercased()
            guard values.contains(lowered) else {
                return .failure(.usage("choose \(values.joined(separator: " or ")) (got \"\(text)\")"))
            }
            return .success(lowered)
        }
    }

    /// Minutes, decimals allowed (0.5 is 30 seconds), 0 or from 0.05 (3 seconds) to `limit`.
    private static func minutes(atMost limit: Int) -> @Sendable (String) -> Result<String, CommandError> {
        { text in
            guard let number = Double(text), number.isFinite, number == 0 || (number >= 0.05 && number <= Double(limit))
            else {
                return .failure(.usage("minutes: 0 (never), or 0.05 to \(limit) (got \"\(text)\")"))
            }
            return .success(number == number.rounded() ? String(Int(number)) : String(number))
        }
    }

    private static func wholeNumber(atMost limit: Int) -> @Sendable (String) -> Result<String, CommandError> {
        { text in
            guard let number = Int(text), number >= 0, number <= limit else {
                return .failure(.usage("a whole number from 0 to \(limit) (got \"\(text)\")"))
            }
            return .success(String(number))
        }
    }

    private static let absolutePath: @Sendable (String) -> Result<String, CommandError> = { text in
        let path = (text.trimmingCharacters(in: .whitespaces) as NSString).expandingTildeInPath
        guard path.hasPrefix("/"), !path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return .failure(.usage("an absolute path (or one starting with ~), got \"\(text)\"")) }
        return .success(path)
    }

    private static let command: @Sendable (String) -> Result<String, CommandError> = { text in
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return .failure(.usage("a command, without control characters")) }
        return .success(trimmed)
    }
}

/// The settings in force for one command: what is stored, over the environment, over the
/// defaults.
struct SettingValues: Sendable {
    var stored: [String: String] = [:]
    var environment: [String: String] = [:]

    /// The value in force and where it comes from (`set`, `environment`, `default`).
    func value(of setting: Setting) -> (value: String, source: String) {
        if let stored = stored["set." + setting.key] { return (stored, "set") }
        if let name = setting.environment, let value = environment[name]?.trimmingCharacters(in: .whitespaces),
            !value.isEmpty
        {
            return (value, "$" + name)
        }
        return (setting.fallback, "default")
    }

    subscript(_ key: String) -> String? { Setting.named(key).map { value(of: $0).value } }
}
