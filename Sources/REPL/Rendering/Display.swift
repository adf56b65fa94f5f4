import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How output is shown: whether stdout is a terminal, how wide it is, whether to colour, and
/// the user's locale and time zone for dates.
struct Display: Sendable {
    /// Standard output is a terminal (progress lines are drawn only then).
    var isTerminal: Bool
    /// The width tables fit into; `nil` means unlimited (output to a file or a pipe).
    var width: Int?
    /// Colour is on (a terminal, and neither `--no-color` nor `NO_COLOR`).
    var color: Bool
    /// The locale for dates.
    var locale: Locale = .autoupdatingCurrent
    /// The time zone for dates.
    var timeZone: TimeZone = .autoupdatingCurrent

    /// Plain output for tests and pipes.
    static let plain = Display(isTerminal: false, width: nil, color: false)

    /// What the process's standard output is, with `--no-color` and the environment applied.
    static func current(noColor: Bool, environment: [String: String]) -> Display {
        let terminal = isatty(STDOUT_FILENO) != 0
        var width: Int?
        if terminal {
            var size = winsize()
            if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { width = Int(size.ws_col) }
            width = width ?? environment["COLUMNS"].flatMap(Int.init) ?? 80
        } else {
            width = environment["COLUMNS"].flatMap(Int.init)
        }
        let color = terminal && !noColor && environment["NO_COLOR"].map(\.isEmpty) != false
        return Display(isTerminal: terminal, width: width, color: color)
    }

    /// `text` in a colour (an SGR code such as "1" bold, "2" dim, "31" red), when colour is on.
    func styled(_ text: String, _ code: String) -> String {
        color && !text.isEmpty ? TerminalText.styled(text, code) : text
    }
}
