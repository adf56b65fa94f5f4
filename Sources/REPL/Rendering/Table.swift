/// An aligned text table that fits a width: flexible columns give up width (the last first),
/// cut with an ellipsis, and a line still too wide is cut at the width, so a row never wraps.
/// Widths are display columns (CJK and emoji take two); with no width to fit (a pipe), a cell
/// is still cut at `maximumCellWidth`.
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

    /// The widest a cell may be when the output has no width (a file or a pipe).
    static let maximumCellWidth = 120

    /// The table as lines, every cell sanitised for the terminal, fitted into `display.width`.
    /// Each cell is measured once (a list of 50,000 feeds measured every cell three times).
    func render(_ display: Display) -> String {
        let cells = rows.map { $0.map(TerminalText.sanitized) }
        let cellWidths = cells.map { $0.map(DisplayWidth.of) }
        var widths = columns.indices.map { index in
            min(
                Self.maximumCellWidth,
                max(
                    DisplayWidth.of(columns[index].title),
                    cellWidths.map { index < $0.count ? $0[index] : 0 }.max() ?? 0))
        }
        let width = display.width
        if let limit = width {
            for flexible in columns.indices.reversed() where columns[flexible].flexible {
                let total = widths.reduce(0, +) + 2 * (columns.count - 1)
                guard total > limit else { break }
                widths[flexible] = max(columns[flexible].minimumWidth, widths[flexible] - (total - limit))
            }
        }
        // A line is at most the sum of the widths: fitting it again is needed only when the
        // columns could not shrink into the display.
        let lineWidth = widths.reduce(0, +) + 2 * (columns.count - 1)
        let fitted = { (text: String) in width.map { $0 < lineWidth ? Self.fit(text, width: $0) : text } ?? text }
        let titles = columns.map(\.title)
        var output = display.styled(fitted(line(titles, titles.map(DisplayWidth.of), widths: widths)), "1")
        output.reserveCapacity(cells.count * (lineWidth + 1))
        for (row, measured) in zip(cells, cellWidths) {
            output += "\n"
            output += fitted(line(row, measured, widths: widths))
        }
        return output
    }

    /// One line: each cell cut or padded to its column's width (`measured` are the cells' widths).
    private func line(_ cells: [String], _ measured: [Int], widths: [Int]) -> String {
        var text = ""
        for (index, column) in columns.enumerated() {
            if index > 0 { text += "  " }
            var cell = index < cells.count ? cells[index] : ""
            var cellWidth = index < measured.count ? measured[index] : 0
            if cellWidth > widths[index] {
                cell = Self.fit(cell, width: widths[index])
                cellWidth = DisplayWidth.of(cell)
            }
            let padding = String(repeating: " ", count: max(0, widths[index] - cellWidth))
            if column.alignRight {
                text += padding + cell
            } else if index == columns.count - 1 {
                text += cell
            } else {
                text += cell + padding
            }
        }
        return text
    }

    /// `text` cut to `width` display columns, the last one an ellipsis when cut.
    static func fit(_ text: String, width: Int) -> String { DisplayWidth.fit(text, width: width) }
}

/// Wraps plain text to a width at word boundaries, keeping paragraph breaks.
enum TextWrap {
    static func wrap(_ text: String, width: Int?) -> String {
        guard let width, width > 10 else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { paragraph -> String in
            var lines: [String] = []
            var current = ""
            var used = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                let size = DisplayWidth.of(word)
                if current.isEmpty {
                    current = String(word)
                    used = size
                } else if used + 1 + size <= width {
                    current += " " + word
                    used += 1 + size
                } else {
                    lines.append(current)
                    current = String(word)
                    used = size
                }
                while used > width {
                    let head = DisplayWidth.prefix(of: current, fitting: width)
                    guard !head.isEmpty else { break }
                    lines.append(String(head))
                    current = String(current[head.endIndex...])
                    used = DisplayWidth.of(current)
                }
            }
            lines.append(current)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
