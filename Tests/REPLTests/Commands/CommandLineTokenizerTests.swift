import Testing

@testable import REPL

@Suite("Command line tokenizer")
struct CommandLineTokenizerTests {
    @Test(
        "splits on spaces and groups quoted words",
        arguments: [
            (
                #"task add "Take out the bins" --every 1 week"#,
                ["task", "add", "Take out the bins", "--every", "1", "week"]
            ),
            ("feed   list", ["feed", "list"]),
            (#"config get 'features.fullTextSearch'"#, ["config", "get", "features.fullTextSearch"]),
            (#"say "she said \"hi\"""#, ["say", #"she said "hi""#]),
            (#"say 'a \ b'"#, ["say", #"a \ b"#]),
            (#"path a\ b"#, ["path", "a b"]),
            (#"empty "" ''"#, ["empty", "", ""]),
            (#"glued"word"s"#, ["gluedwords"]),
            ("   ", []),
        ])
    func splits(line: String, words: [String]) throws {
        #expect(try CommandLineTokenizer.words(line) == words)
    }

    @Test("an unbalanced quote is an error that names the quote")
    func unbalanced() {
        #expect(throws: CommandLineTokenizer.TokenizeError.unbalancedQuote("\"")) {
            try CommandLineTokenizer.words(#"task add "Take out"#)
        }
        #expect(throws: CommandLineTokenizer.TokenizeError.unbalancedQuote("'")) {
            try CommandLineTokenizer.words("feed rename 1 'News")
        }
        #expect(throws: CommandLineTokenizer.TokenizeError.danglingEscape) {
            try CommandLineTokenizer.words(#"help \"#)
        }
    }

    // Found by fuzz-tokenizer: the word `\u{0330}_`, quoted as `"\u{0330}_"`, did not split again,
    // because the quote and the combining mark after it made one Character.
    @Test("a quote, space or backslash followed by a combining mark still quotes, separates or escapes")
    func combiningMarks() throws {
        #expect(try CommandLineTokenizer.words("\"\u{0330}_\"") == ["\u{0330}_"])
        #expect(try CommandLineTokenizer.words("say '\u{0301}a b'") == ["say", "\u{0301}a b"])
        #expect(try CommandLineTokenizer.words("a \u{0301}b") == ["a", "\u{0301}b"])
        #expect(try CommandLineTokenizer.words("a\\\u{0301} b") == ["a\u{0301}", "b"])
        #expect(
            try CommandLineTokenizer.words("cafe\u{0301} \"\u{1F44D}\u{1F3FD}\"") == [
                "cafe\u{0301}", "\u{1F44D}\u{1F3FD}",
            ])
    }
}

@Suite("Did-you-mean suggestions")
struct SuggestionTests {
    @Test(
        "typos find the nearest command",
        arguments: [
            ("hlep", "help"), ("hepl", "help"), ("qiut", "quit"), ("exti", "exit"), ("histroy", "history"),
            ("hist", "history"),
        ])
    func nearest(typo: String, expected: String) {
        #expect(Suggestion.nearest(to: typo, in: CommandCatalog.words) == expected)
    }

    @Test("unrelated words get no suggestion")
    func noSuggestion() {
        #expect(Suggestion.nearest(to: "banana", in: CommandCatalog.words) == nil)
        #expect(Suggestion.nearest(to: "zz", in: CommandCatalog.words) == nil)
    }

    @Test("edit distance counts swaps as one edit")
    func distance() {
        #expect(Suggestion.editDistance("help", "help") == 0)
        #expect(Suggestion.editDistance("hepl", "help") == 1)
        #expect(Suggestion.editDistance("", "abc") == 3)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
    }
}
