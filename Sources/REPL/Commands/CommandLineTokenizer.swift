/// Splits a command line into words the way a shell user expects: spaces separate words,
/// single and double quotes group them (`task add "Take out the bins"`), a backslash escapes
/// the next character outside single quotes.
enum CommandLineTokenizer {
    /// Why a line could not be split.
    enum TokenizeError: Error, Equatable, CustomStringConvertible {
        /// A quote was opened and never closed.
        case unbalancedQuote(Character)
        /// The line ends with a lone backslash.
        case danglingEscape

        var description: String {
            switch self {
            case .unbalancedQuote(let quote): "unbalanced \(quote) quote: close it or escape it with \\"
            case .danglingEscape: "the line ends with a lone \\"
            }
        }
    }

    /// The words of `line`; an empty array for a blank line.
    static func words(_ line: String) throws(TokenizeError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaping = false
        for character in line {
            if escaping {
                current.append(character)
                escaping = false
                continue
            }
            if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaping = true
                } else {
                    current.append(character)
                }
                continue
            }
            switch character {
            case "\"", "'":
                quote = character
                inWord = true
            case "\\":
                escaping = true
                inWord = true
            case " ", "\t":
                if inWord { words.append(current) }
                current = ""
                inWord = false
            default:
                current.append(character)
                inWord = true
            }
        }
        if let quote { throw .unbalancedQuote(quote) }
        if escaping { throw .danglingEscape }
        if inWord { words.append(current) }
        return words
    }
}
