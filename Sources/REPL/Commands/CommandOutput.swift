import Models

/// What a command printed: lines for a person and one JSON document for `--json`.
struct CommandOutput {
    /// The human form (may be empty).
    var text: String
    /// The JSON form.
    var json: JSONValue
    /// Set when the command printed its result but still failed (a refresh in which no feed
    /// could be refreshed): the line is reported and the command ends with its status.
    var failure: CommandError? = nil

    /// `{"ok":true}` and a line of text.
    static func ok(_ text: String) -> CommandOutput { CommandOutput(text: text, json: .object(["ok": .bool(true)])) }
}
