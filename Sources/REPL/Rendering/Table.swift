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
    /// Each cell is sanitised and measured once, into flat arrays (a list of 50,000 feeds
    /// measured every cell three times, and an array per row per pass cost a third of it).
    func render(_ display: Display) -> String {
        let count = columns.count
        var cells: [String] = []
        var cellWidths: [Int] = []
        cells.reserveCapacity(rows.count * count)
        cellWidths.reserveCapacity(rows.count * count)
        var widths = columns.map { DisplayWidth.of($0.title) }
        for row in rows {
            for index in 0..<count {
                let cell = index < row.count ? TerminalText.sanitized(row[index]) : ""
                let cellWidth = DisplayWidth.of(cell)
                cells.append(cell)
                cellWidths.append(cellWidth)
                widths[index] = max(widths[index], cellWidth)
            }
        }
        widths = widths.map { min(Self.maximumCellWidth, $0) }
        let width = display.width
        if let limit = width {
            for flexible in columns.indices.reversed() where columns[flexible].flexible {
                let total = widths.reduce(0, +) + 2 * (count - 1)
                guard total > limit else { break }
                widths[flexible] = max(columns[flexible].minimumWidth, widths[flexible] - (total - limit))
            }
        }
        // A line is at most the sum of the widths: fitting it again is needed only when the
        // columns could not shrink into the display.
        let lineWidth = widths.reduce(0, +) + 2 * (count - 1)
        let spaces = String(repeating: " ", count: widths.max() ?? 0)
        let titles = columns.map(\.title)
        var header = ""
        append(titles[...], titles.map(DisplayWidth.of)[...], widths: widths, spaces: spaces, to: &header)
        if let width, width < lineWidth { header = Self.fit(header, width: width) }
        var output = display.styled(header, "1")
        output.reserveCapacity(rows.count * (lineWidth + 1))
        for start in stride(from: 0, to: cells.count, by: max(1, count)) {
            let row = cells[start..<start + count]
            let measured = cellWidths[start..<start + count]
            output += "\n"
            if let width, width < lineWidth {
                var line = ""
                append(row, measured, widths: widths, spaces: spaces, to: &line)
                output += Self.fit(line, width: width)
            } else {
                append(row, measured, widths: widths, spaces: spaces, to: &output)
            }
        }
        return output
    }

    /// Appends one line to `output`: each cell cut or padded to its column's width (`measured`
    /// are the cells' widths; `spaces` holds at least the widest column's width of spaces).
    private func append(
        _ cells: ArraySlice<String>, _ measured: ArraySlice<Int>, widths: [Int], spaces: String,
        to output: inout String
    ) {
        for (offset, column) in columns.enumerated() {
            if offset > 0 { output += "  " }
            var cell = cells[cells.startIndex + offset]
            var cellWidth = measured[measured.startIndex + offset]
            if cellWidth > widths[offset] {
                cell = Self.fit(cell, width: widths[offset])
                cellWidth = DisplayWidth.of(cell)
            }
            let padding = spaces.prefix(max(0, widths[offset] - cellWidth))
            if column.alignRight {
                output += padding
                output += cell
            } else if offset == columns.count - 1 {
                output += cell
            } else {
                output += cell
                output += padding
            }
        }
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
