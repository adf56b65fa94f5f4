import CInterrupts
import CLibEdit
import Foundation

/// The interactive line editor: libedit's readline interface with history recall (Up/Down,
/// Ctrl-R) and Tab completion (see `Completer`).
///
/// libedit keeps its state in process globals, so there is one editor per process; it is only
/// ever used from the thread running the interactive loop.
final class LibEditLineEditor: LineReading {
    /// Prepares libedit and loads `history` into its recall list.
    init(history: [String], completer: Completer) {
        tidings_set_readline_name("tidings")
        _ = tidings_edit_on_terminal()
        tidings_stifle_history(1000)
        for line in history { tidings_add_history(line) }
        CompletionTable.completer = completer
        tidings_set_completion(completeWord)
        tidings_quiet_bell()
    }

    func prepare() async {
        await CompletionTable.completer?.reload()
    }

    func readLine(prompt: String) -> String? {
        tidings_set_at_prompt(1)
        defer { tidings_set_at_prompt(0) }
        guard let raw = tidings_readline(prompt) else {
            // Ctrl-D: end the prompt's line, so the shell's prompt starts on a fresh one.
            FileHandle.standardOutput.write(Data("\n".utf8))
            return nil
        }
        defer { free(raw) }
        return String(cString: raw)
    }

    func remember(_ line: String) {
        tidings_add_history(line)
    }
}

/// What Tab completes. Written once before the first prompt and read only by libedit's
/// completion callback on the same thread afterwards, so the unchecked global is never raced.
private enum CompletionTable {
    nonisolated(unsafe) static var completer: Completer?

    /// The candidates for `prefix`, given the line up to where the word starts, and the lines
    /// to list instead of them when they are ids (with their titles).
    static func matches(for prefix: String, line: String, start: Int) -> (matches: [String], listed: [String]?) {
        let before = String(decoding: line.utf8.prefix(start), as: UTF8.self)
        let words = (try? CommandLineTokenizer.words(before)) ?? before.split(separator: " ").map(String.init)
        guard let completer else { return ([], nil) }
        guard let matches = completer.candidates(before: words, prefix: prefix) else {
            return (Completer.paths(matching: prefix), nil)
        }
        let width = Display.terminalSize()?.columns ?? 80
        return (matches, completer.titledMatches(before: words, matches: matches, width: width))
    }
}

/// libedit's completion hook: a NULL-terminated, malloc'd array whose first element is the
/// text to insert (the longest common prefix) followed by every match. libedit inserts the
/// first element and lists the others as they are (this libedit never calls
/// `rl_completion_display_matches_hook`), so several ids are listed with their titles: the
/// inserted text is still only the ids' common prefix.
private func completeWord(_ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32)
    -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
{
    guard let text else { return nil }
    let prefix = String(cString: text)
    let line = tidings_line_buffer().map { String(cString: $0) } ?? ""
    let (matches, listed) = CompletionTable.matches(for: prefix, line: line, start: Int(start))
    tidings_disable_default_completion()
    guard let first = matches.first else { return nil }
    // A directory is completed without the space, so its contents can follow.
    tidings_set_completion_append_character(matches.count == 1 && first.hasSuffix("/") ? 0 : 0x20)
    let common = matches.dropFirst().reduce(first) { String($0.commonPrefix(with: $1)) }
    // The bell, as readline rings it: several matches and nothing to add to the word (libedit's
    // own rings after a unique completion too, and is silenced; see `tidings_quiet_bell`).
    if matches.count > 1, common == prefix { tidings_ring_bell() }
    // libedit reads matches[2] before it looks at matches[1], so a unique match is given twice
    // (substitution, then the match) and the array has a spare NULL at its end.
    let entries = matches.count == 1 ? [first, first] : [common] + (listed ?? matches)
    let slots = entries.count + 2
    guard
        let array = malloc(MemoryLayout<UnsafeMutablePointer<CChar>?>.stride * slots)?
            .bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: slots)
    else { return nil }
    for (index, entry) in entries.enumerated() { array[index] = strdup(entry) }
    array[entries.count] = nil
    array[entries.count + 1] = nil
    return array
}
