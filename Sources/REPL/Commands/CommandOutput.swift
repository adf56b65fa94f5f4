import Models

/// What a command printed: lines for a person and one JSON document for `--json`. A long list
/// builds each form only if it is printed (`deferred`): a list of 50,000 feeds spent half its
/// time building the JSON nobody asked for.
struct CommandOutput: Sendable {
    private let makeText: @Sendable () -> String
    private let makeJSON: @Sendable () -> JSONValue

    /// Builds the human form (may be empty). A method, not a property: a deferred list is
    /// built on every call, and a list of 50,000 feeds was once built twice to be printed once.
    func renderText() -> String { makeText() }
    func renderJSON() -> JSONValue { makeJSON() }
    /// Set when the command printed its result but still failed (a refresh in which no feed
    /// could be refreshed): the line is reported and the command ends with its status.
    var failure: CommandError? = nil
    /// A line for standard error, shown before the output (the update banner after a config
    /// refresh that raised the minimum version).
    var notice: String? = nil
    /// Set by `quit`: the session ends after this output.
    var endsSession = false

    init(text: String, json: JSONValue, failure: CommandError? = nil) {
        makeText = { text }
        makeJSON = { json }
        self.failure = failure
    }

    private init(makeText: @escaping @Sendable () -> String, makeJSON: @escaping @Sendable () -> JSONValue) {
        self.makeText = makeText
        self.makeJSON = makeJSON
    }

    /// An output whose forms are built when printed (long lists).
    static func deferred(text: @escaping @Sendable () -> String, json: @escaping @Sendable () -> JSONValue)
        -> CommandOutput
    {
        CommandOutput(makeText: text, makeJSON: json)
    }

    /// `{"ok":true}` and a line of text.
    static func ok(_ text: String) -> CommandOutput { CommandOutput(text: text, json: .object(["ok": .bool(true)])) }
}
