import Foundation

/// The persistent command history: one line per entry in a plain text file, bounded, with
/// blank lines and immediate repeats left out.
///
/// It is kept by Tidings rather than by libedit's `write_history`, whose file format escapes
/// spaces and differs between libedit and GNU readline; the line editor is fed from here.
final class HistoryStore {
    /// The file the entries are kept in; `nil` keeps them in memory only.
    let fileURL: URL?
    /// The most entries kept; older ones are dropped.
    let limit: Int
    /// The entries, oldest first.
    private(set) var entries: [String]

    /// Loads the history from `fileURL` (a missing or unreadable file is an empty history).
    init(fileURL: URL?, limit: Int = 1000) {
        self.fileURL = fileURL
        self.limit = limit
        let text = fileURL.flatMap { try? String(contentsOf: $0, encoding: .utf8) } ?? ""
        entries = Array(text.split(separator: "\n").map(String.init).suffix(limit))
    }

    /// Records a line; returns whether it was stored (blank lines, repeats of the previous
    /// entry and lines that hold a credential are not).
    @discardableResult
    func add(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.contains("\n"), entries.last != trimmed, !Self.holdsCredential(trimmed)
        else { return false }
        entries.append(trimmed)
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
        save()
        return true
    }

    /// Whether `line` holds what looks like a credential, which the history (on disk, and the
    /// in-memory list that `history` and the Up key show) never keeps: a URL or `user:password@host`
    /// with a password in it, a `password=`/`token:`-style assignment, an `Authorization` header,
    /// or a `--password`-style option. The command itself still runs (or is refused) as typed.
    static func holdsCredential(_ line: String) -> Bool {
        credentialPatterns.contains { line.range(of: $0, options: [.regularExpression, .caseInsensitive]) != nil }
    }

    private static let credentialPatterns = [
        // userinfo with a password: scheme://user:secret@host, or user:secret@host without a scheme
        #"(^|[\s"'=])([a-z][a-z0-9+.-]*://)?[^\s/@:"']*:[^\s/@"']*@[^\s/@"']"#,
        // assignments and headers: password=…, passwd: …, token=…, secret=…, api_key=…
        #"(?<![a-z0-9])(password|passwd|pass|pwd|token|secret|api[_-]?key)\s*[=:]\s*\S"#,
        #"authorization\s*:"#,
        // options that take one: --password X, --token=X, --secret X
        #"--?(pass(word|wd)?|token|secret|api[_-]?key)\b"#,
    ]

    /// Writes the entries atomically, so a crash never leaves half a history; a new history is
    /// private to the user (0600), as shells keep theirs.
    private func save() {
        guard let fileURL else { return }
        let text = entries.joined(separator: "\n") + "\n"
        try? FileOutput.write(Data(text.utf8), to: fileURL.path, newFileMode: 0o600)
    }
}
