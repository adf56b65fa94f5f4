import Foundation
import Models

/// `set`, `unset`, `alias`, `unalias`: settings and aliases kept in the database.
struct SettingCommands {
    let context: CommandContext

    static let commands: [Command] = [
        Command(
            ["set"], usage: "set [key] [value]",
            summary:
                "without a key, every setting with its value and where it comes from (set, the environment or "
                + "the default); with a key, that one; with a value, set it (checked first)",
            example: "set order oldest-first",
            arguments: [
                .init(name: "key", kind: .setting, count: .optional),
                .init(name: "value", kind: .text, count: .optionalRest),
            ],
            requires: .database, literalAfter: 1
        ) { try await SettingCommands(context: $0.context).set($0) },
        Command(
            ["unset"], usage: "unset <key>", summary: "go back to a setting's default (or its environment variable)",
            example: "unset pager", arguments: [.init(name: "key", kind: .setting)], requires: .database
        ) { try await SettingCommands(context: $0.context).unset($0) },
        Command(
            ["alias"], usage: "alias [name] [command...]",
            summary:
                "without a name, every alias; with a command, NAME runs it, the words typed after NAME added at the end "
                + "(newsboat's macros, everyday use)",
            example: "alias catchup item mark --all read",
            arguments: [
                .init(name: "name", kind: .text, count: .optional),
                .init(name: "command", kind: .commandName, count: .optionalRest),
            ],
            requires: .database, literalAfter: 1
        ) { try await SettingCommands(context: $0.context).alias($0) },
        Command(
            ["unalias"], usage: "unalias <name>", summary: "delete an alias", example: "unalias catchup",
            arguments: [.init(name: "name", kind: .text)], requires: .database
        ) { try await SettingCommands(context: $0.context).unalias($0) },
    ]

    private var store: any SettingsStoring {
        get throws {
            guard let settings = context.settings else {
                throw CommandError(code: "storage", message: "settings need the database, which is not open")
            }
            return settings
        }
    }

    private func set(_ input: CommandInput) async throws -> CommandOutput {
        let values = await context.settingValues()
        guard let key = input.text("key") else {
            var table = Table(columns: [
                .init(title: "KEY"), .init(title: "VALUE", flexible: true), .init(title: "SOURCE"),
            ])
            table.rows = Setting.all.map { setting in
                let (value, source) = values.value(of: setting)
                return [setting.key, value, source]
            }
            return CommandOutput(
                text: table.render(context.display),
                json: .object([
                    "settings": .array(
                        Setting.all.map { setting in
                            let (value, source) = values.value(of: setting)
                            return .object([
                                "key": .string(setting.key), "value": .string(value), "source": .string(source),
                                "summary": .string(setting.summary),
                            ])
                        })
                ]))
        }
        let setting = try Self.setting(key)
        guard let text = input.text("value") else {
            let (value, source) = values.value(of: setting)
            return CommandOutput(
                text: "\(setting.key) = \(TerminalText.sanitized(value))  (\(source))\n\(setting.summary)",
                json: .object(["key": .string(setting.key), "value": .string(value), "source": .string(source)]))
        }
        let value: String
        switch setting.check(text) {
        case .success(let checked): value = checked
        case .failure(let error): throw CommandError.usage("\(setting.key): \(error.message)")
        }
        try await store.set("set." + setting.key, to: value)
        return .ok("\(setting.key) = \(TerminalText.sanitized(value))")
    }

    private func unset(_ input: CommandInput) async throws -> CommandOutput {
        let setting = try Self.setting(input.text("key") ?? "")
        try await store.set("set." + setting.key, to: nil)
        let (value, source) = await context.settingValues().value(of: setting)
        return .ok("\(setting.key) = \(TerminalText.sanitized(value))  (\(source))")
    }

    static func setting(_ key: String) throws -> Setting {
        guard let setting = Setting.named(key) else {
            let hint =
                Suggestion.nearest(to: key, in: Setting.all.map(\.key)).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw CommandError(
                code: "not_found", message: "no setting \"\(TerminalText.sanitized(key))\"\(hint); \"set\" lists them")
        }
        return setting
    }

    // MARK: Aliases

    /// The words an alias stands for, kept as a list of words (`alias.NAME`).
    static func words(_ stored: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(stored.utf8))) ?? []
    }

    private func alias(_ input: CommandInput) async throws -> CommandOutput {
        guard let name = input.text("name")?.lowercased() else {
            let aliases = try await store.all(prefix: "alias.").sorted { $0.key < $1.key }
            let lines = aliases.map { key, value in
                "\(key.dropFirst(6)) = \(ViewCommands.shown(Self.words(value)))"
            }
            return CommandOutput(
                text: lines.isEmpty ? "no aliases; add one with \"alias NAME COMMAND\"" : lines.joined(separator: "\n"),
                json: .object([
                    "aliases": .array(
                        aliases.map {
                            .object([
                                "name": .string(String($0.key.dropFirst(6))),
                                "command": .array(Self.words($0.value).map { .string($0) }),
                            ])
                        })
                ]))
        }
        guard !name.isEmpty, name.count <= 50,
            name.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || "0123456789-_".unicodeScalars.contains($0) })
        else {
            throw CommandError.usage("an alias is a word of letters, digits, - and _ (at most 50)")
        }
        guard !CommandCatalog.words.contains(name), CommandCatalog.command(named: name) == nil else {
            throw CommandError.usage("\(name) is a command; an alias cannot hide it")
        }
        let words = Array(input.words("command"))
        guard let first = words.first else {
            guard let stored = try await store.all(prefix: "alias.")["alias." + name] else {
                throw CommandError(code: "not_found", message: "no alias \"\(name)\"")
            }
            return CommandOutput(
                text: "\(name) = \(ViewCommands.shown(Self.words(stored)))",
                json: .object(["name": .string(name), "command": .array(Self.words(stored).map { .string($0) })]))
        }
        // It must name a command (not another alias: one expansion, never a loop).
        _ = try CommandCatalog.resolve(words)
        guard CommandCatalog.words.contains(first.lowercased()) else {
            throw CommandError.usage("an alias runs a command; \"\(first)\" is not one")
        }
        let definition = String(decoding: try JSONEncoder().encode(words), as: UTF8.self)
        try await store.set("alias." + name, to: definition)
        return .ok("\(name) = \(ViewCommands.shown(words))")
    }

    private func unalias(_ input: CommandInput) async throws -> CommandOutput {
        let name = (input.text("name") ?? "").lowercased()
        guard try await store.all(prefix: "alias.")["alias." + name] != nil else {
            throw CommandError(code: "not_found", message: "no alias \"\(TerminalText.sanitized(name))\"")
        }
        try await store.set("alias." + name, to: nil)
        return .ok("removed alias \(name)")
    }
}
