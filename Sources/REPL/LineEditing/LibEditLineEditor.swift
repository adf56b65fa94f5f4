import CLibEdit
import Foundation

/// The interactive line editor: libedit's readline interface with history recall (Up/Down,
/// Ctrl-R) and Tab completion of command words.
///
/// libedit keeps its state in process globals, so there is one editor per process; it is only
/// ever used from the thread running the interactive loop.
final class LibEditLineEditor: LineReading {
    /// Prepares libedit and loads `history` into its recall list.
    init(history: [String], completions: [String]) {
        tidings_set_readline_name("tidings")
        tidings_stifle_history(1000)
        for line in history { tidings_add_history(line) }
        CompletionTable.words = completions.sorted()
        tidings_set_completion(completeCommandWord)
    }

    func readLine(prompt: String) -> String? {
        guard let raw = tidings_readline(prompt) else { return nil }
        defer { free(raw) }
        return String(cString: raw)
    }

    func remember(_ line: String) {
        tidings_add_history(line)
    }
}

/// The words Tab completes. Written once before the first prompt and read only by libedit's
/// completion callback on the same thread afterwards, so the unchecked global is never raced.
private enum CompletionTable {
    nonisolated(unsafe) static var words: [String] = []

    /// The candidates for `prefix` as the first word of a line.
    static func matches(for prefix: String, line: String, start: Int) -> [String] {
        let before = line.utf8.prefix(start)
        guard before.allSatisfy({ $0 == 0x20 }) else { return [] }
        return words.filter { $0.hasPrefix(prefix) }
    }
}

/// libedit's completion hook: a NULL-terminated, malloc'd array whose first element is the
/// text to insert (the longest common prefix) followed by every match.
private func completeCommandWord(_ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32)
    -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
{
    tidings_disable_default_completion()
    guard let text else { return nil }
    let prefix = String(cString: text)
    let line = tidings_line_buffer().map { String(cString: $0) } ?? ""
    let matches = CompletionTable.matches(for: prefix, line: line, start: Int(start))
    guard let first = matches.first else { return nil }
    let common = matches.dropFirst().reduce(first) { String($0.commonPrefix(with: $1)) }
    let entries = [matches.count == 1 ? first : common] + (matches.count == 1 ? [] : matches)
    guard
        let array = malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * (entries.count + 1))?
            .bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: entries.count + 1)
    else { return nil }
    for (index, entry) in entries.enumerated() { array[index] = strdup(entry) }
    array[entries.count] = nil
    return array
}
