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
    /// The width tables fit into; `nil` means unlimited (output to a file or a pipe). On a
    /// terminal it is read anew each time, so output follows a resized window.
    var width: Int? {
        get { followsTerminal ? Self.terminalWidth() ?? fixedWidth : fixedWidth }
        set {
            fixedWidth = newValue
            followsTerminal = false
        }
    }
    /// The width when the terminal's cannot be read (or when it was set).
    private var fixedWidth: Int?
    /// Whether `width` asks the terminal.
    private var followsTerminal = false
    /// Colour is on (a terminal, and neither `--no-color` nor `NO_COLOR`).
    var color: Bool
    /// The locale for dates.
    var locale: Locale = .autoupdatingCurrent
    /// The time zone for dates.
    var timeZone: TimeZone = .autoupdatingCurrent

    /// Creates a display of a fixed width.
    init(
        isTerminal: Bool, width: Int?, color: Bool, locale: Locale = .autoupdatingCurrent,
        timeZone: TimeZone = .autoupdatingCurrent
    ) {
        self.isTerminal = isTerminal
        self.fixedWidth = width
        self.color = color
        self.locale = locale
        self.timeZone = timeZone
    }

    /// Plain output for tests and pipes.
    static let plain = Display(isTerminal: false, width: nil, color: false)

    /// The locale for dates, from `LC_ALL`, else `LC_TIME`, else `LANG` (POSIX's order; an
    /// empty variable counts as unset), as `de_DE.UTF-8@euro` names it: swift-foundation on
    /// Linux does not read them itself. `C`, `POSIX` or nothing is `en_US_POSIX`.
    static func locale(environment: [String: String]) -> Locale {
        let name = ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let identifier = String(name.prefix { $0 != "." && $0 != "@" })
        guard !identifier.isEmpty, identifier != "C", identifier != "POSIX" else {
            return Locale(identifier: "en_US_POSIX")
        }
        return Locale(identifier: identifier)
    }

    /// The columns of the terminal on standard output, now (`nil` when it is not one).
    private static func terminalWidth() -> Int? { terminalSize()?.columns }

    /// The size of the terminal on standard output, now (`nil` when it is not one).
    static func terminalSize() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// What the process's standard output is, with `--no-color` and the environment applied.
    static func current(noColor: Bool, environment: [String: String]) -> Display {
        let terminal = isatty(STDOUT_FILENO) != 0
        let columns = environment["COLUMNS"].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
        let color = terminal && !noColor && environment["NO_COLOR"].map(\.isEmpty) != false
        var display = Display(
            isTerminal: terminal, width: terminal ? columns ?? 80 : columns, color: color,
            locale: locale(environment: environment))
        display.followsTerminal = terminal
        return display
    }

    /// `text` in a colour (an SGR code such as "1" bold, "2" dim, "31" red), when colour is on.
    func styled(_ text: String, _ code: String) -> String {
        color && !text.isEmpty ? TerminalText.styled(text, code) : text
    }
}
