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

    /// Records a line; returns whether it was stored (blank lines and repeats of the previous
    /// entry are not).
    @discardableResult
    func add(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.contains("\n"), entries.last != trimmed else { return false }
        entries.append(trimmed)
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
        save()
        return true
    }

    /// Writes the entries atomically, so a crash never leaves half a history.
    private func save() {
        guard let fileURL else { return }
        let text = entries.joined(separator: "\n") + "\n"
        try? Data(text.utf8).write(to: fileURL, options: .atomic)
    }
}
