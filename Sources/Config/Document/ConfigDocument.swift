import Foundation
import Models

/// Reads a configuration document and checks the types of the keys this version knows, so a
/// document that would be misread is refused as a whole with the path of the first problem.
///
/// A `minVersion` string that is not a version passes here: it is reported and treated as no
/// requirement (see `ConfigSnapshot.minVersionProblem`), never as a lock-out.
enum ConfigDocument {
    /// Decodes `data` as a JSON object and checks the known keys.
    ///
    /// - Throws: `ConfigError.invalidDocument` naming `source` and the path of the problem.
    static func decode(_ data: Data, source: String) throws(ConfigError) -> AppConfig {
        let config: AppConfig
        do {
            config = try JSONDecoder().decode(AppConfig.self, from: data)
        } catch let error as DecodingError {
            throw .invalidDocument(source: source, detail: error.readableDescription)
        } catch {
            throw .invalidDocument(source: source, detail: error.localizedDescription)
        }
        if let problem = problem(in: config) {
            throw .invalidDocument(source: source, detail: problem)
        }
        return config
    }

    /// The first known key whose value has the wrong type or range, as `path: expected …`.
    static func problem(in config: AppConfig) -> String? {
        let values = config.values
        if let value = values["minVersion"], value != .null, value.stringValue == nil {
            return mismatch("minVersion", expected: "a version string such as \"1.2.0\"", found: value)
        }
        if let value = values["configURL"] {
            guard let text = value.stringValue, let url = URL(string: text), url.scheme != nil else {
                return mismatch("configURL", expected: "an absolute URL string", found: value)
            }
        }
        for key in [
            "refreshIntervalMinutes", "maxConcurrentRefreshes", "maxConnectionsPerHost", "maxRetryAfterMinutes",
        ] {
            if let value = values[key], !(1...52_560_000).contains(value.intValue ?? 0) {
                return mismatch(key, expected: "a whole number from 1 to 52560000", found: value)
            }
        }
        if let value = values["features"] {
            guard let members = value.objectValue else {
                return mismatch("features", expected: "an object of feature names to true or false", found: value)
            }
            for (name, flag) in members.sorted(by: { $0.key < $1.key }) where flag.boolValue == nil {
                return mismatch("features.\(name)", expected: "true or false", found: flag)
            }
        }
        if let value = values["rollouts"] {
            guard let members = value.objectValue else {
                return mismatch("rollouts", expected: "an object of feature names to percentages", found: value)
            }
            for (name, percent) in members.sorted(by: { $0.key < $1.key }) {
                guard let number = percent.intValue, (0...100).contains(number) else {
                    return mismatch("rollouts.\(name)", expected: "a whole percentage from 0 to 100", found: percent)
                }
            }
        }
        return nil
    }

    private static func mismatch(_ path: String, expected: String, found value: JSONValue) -> String {
        "\(path): expected \(expected), found \(describe(value))"
    }

    /// `string "abc"`, `number 3`, `array`, `object`, … as a reader of the document calls them.
    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "Boolean \(flag)"
        case .integer, .double: "number \(value.description)"
        case .string: "string \(value.description)"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
