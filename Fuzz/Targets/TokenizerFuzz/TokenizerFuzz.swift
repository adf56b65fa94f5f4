/// libFuzzer entry point for the REPL's command-line tokenizer (`CommandLineTokenizer.swift`,
/// compiled into this target through a symbolic link).
///
/// Invariant: a line that splits into words splits into the same words again once each word is
/// double-quoted (its `\` and `"` escaped) and the words are joined with spaces, the way the
/// completer and the history write a line back.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTokenizer(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let line = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let words = try? CommandLineTokenizer.words(line) else { return 0 }
    let rejoined = words.map(quoted).joined(separator: " ")
    let again: [String]
    do {
        again = try CommandLineTokenizer.words(rejoined)
    } catch {
        fatalError("\(words) re-joined as \(rejoined.debugDescription) does not split: \(error)")
    }
    guard again == words else {
        fatalError("\(words) re-joined as \(rejoined.debugDescription) splits into \(again)")
    }
    return 0
}

/// `word` in double quotes, its backslashes and double quotes escaped (by Unicode scalar, as the
/// tokenizer reads).
private func quoted(_ word: String) -> String {
    var output = "\""
    for scalar in word.unicodeScalars {
        if scalar == "\\" || scalar == "\"" { output.append("\\") }
        output.unicodeScalars.append(scalar)
    }
    return output + "\""
}
