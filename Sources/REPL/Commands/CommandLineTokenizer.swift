/// Splits a command line into words the way a shell user expects: spaces separate words,
/// single and double quotes group them (`task add "Take out the bins"`), a backslash escapes
/// the next character outside single quotes. The line is read by Unicode scalar, as a shell
/// reads bytes: a quote followed by a combining mark is still a quote.
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
        var quote: Unicode.Scalar?
        var escaping = false
        for scalar in line.unicodeScalars {
            if escaping {
                current.unicodeScalars.append(scalar)
                escaping = false
                continue
            }
            if let open = quote {
                if scalar == open {
                    quote = nil
                } else if scalar == "\\" && open == "\"" {
                    escaping = true
                } else {
                    current.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"", "'":
                quote = scalar
                inWord = true
            case "\\":
                escaping = true
                inWord = true
            case " ", "\t":
                if inWord { words.append(current) }
                current = ""
                inWord = false
            default:
                current.unicodeScalars.append(scalar)
                inWord = true
            }
        }
        if let quote { throw .unbalancedQuote(Character(quote)) }
        if escaping { throw .danglingEscape }
        if inWord { words.append(current) }
        return words
    }
}
