/// An aligned text table that fits a width: flexible columns give up width (the last first),
/// cut with an ellipsis, and a line still too wide is cut at the width, so a row never wraps.
struct Table {
    /// One column.
    struct Column {
        /// The header.
        var title: String
        /// Numbers align right.
        var alignRight = false
        /// This column gives up width when the table is too wide.
        var flexible = false
        /// The narrowest the flexible column may get.
        var minimumWidth = 8
    }

    var columns: [Column]
    var rows: [[String]] = []

    /// The table as lines, every cell sanitised for the terminal, fitted into `display.width`.
    func render(_ display: Display) -> String {
        let cells = rows.map { $0.map(TerminalText.sanitized) }
        var widths = columns.indices.map { index in
            max(columns[index].title.count, cells.map { index < $0.count ? $0[index].count : 0 }.max() ?? 0)
        }
        if let limit = display.width {
            for flexible in columns.indices.reversed() where columns[flexible].flexible {
                let total = widths.reduce(0, +) + 2 * (columns.count - 1)
                guard total > limit else { break }
                widths[flexible] = max(columns[flexible].minimumWidth, widths[flexible] - (total - limit))
            }
        }
        let fitted = { (text: String) in display.width.map { Self.fit(text, width: $0) } ?? text }
        var lines = [display.styled(fitted(line(columns.map(\.title), widths: widths)), "1")]
        lines += cells.map { fitted(line($0, widths: widths)) }
        return lines.joined(separator: "\n")
    }

    private func line(_ cells: [String], widths: [Int]) -> String {
        var parts: [String] = []
        for (index, column) in columns.enumerated() {
            let cell = index < cells.count ? Self.fit(cells[index], width: widths[index]) : ""
            let padding = String(repeating: " ", count: max(0, widths[index] - cell.count))
            parts.append(column.alignRight ? padding + cell : (index == columns.count - 1 ? cell : cell + padding))
        }
        return parts.joined(separator: "  ")
    }

    /// `text` cut to `width` characters, the last one an ellipsis when cut.
    static func fit(_ text: String, width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(width)) }
        return String(text.prefix(width - 1)) + "…"
    }
}

/// Wraps plain text to a width at word boundaries, keeping paragraph breaks.
enum TextWrap {
    static func wrap(_ text: String, width: Int?) -> String {
        guard let width, width > 10 else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { paragraph -> String in
            var lines: [String] = []
            var current = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                if current.isEmpty {
                    current = String(word)
                } else if current.count + 1 + word.count <= width {
                    current += " " + word
                } else {
                    lines.append(current)
                    current = String(word)
                }
                while current.count > width {
                    lines.append(String(current.prefix(width)))
                    current = String(current.dropFirst(width))
                }
            }
            lines.append(current)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
