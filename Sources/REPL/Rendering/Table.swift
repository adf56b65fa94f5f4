/// An aligned text table that fits a width: flexible columns give up width (the last first),
/// cut with an ellipsis, and a line still too wide is cut at the width, so a row never wraps.
/// Widths are display columns (CJK and emoji take two); with no width to fit (a pipe), a cell
/// is still cut at `maximumCellWidth`. A cell made whole by `Display.styled` keeps its colour
/// around the text it shows: it is measured, cut and padded as the text alone.
struct Table {
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
    /// Each cell is sanitised and measured once, into flat arrays: not three times, and not into an
    /// array per row per pass.
    func render(_ display: Display) -> String {
        let count = columns.count
        var cells: [String] = []
        var cellWidths: [Int] = []
        cells.reserveCapacity(rows.count * count)
        cellWidths.reserveCapacity(rows.count * count)
        var widths = columns.map { DisplayWidth.of($0.title) }
        // The style codes of styled cells, by cell index (few cells have one).
        var styles: [Int: String] = [:]
        for row in rows {
            for index in 0..<count {
                var raw = index < row.count ? row[index] : ""
                if let (code, text) = TerminalText.unstyled(raw) {
                    styles[cells.count] = code
                    raw = String(text)
                }
                let cell = TerminalText.sanitized(raw)
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
        let alignsRight = columns.map(\.alignRight)
        let titles = columns.map(\.title)
        var header: [UInt8] = []
        append(titles[...], titles.map(DisplayWidth.of)[...], widths: widths, alignsRight: alignsRight, to: &header)
        var headerText = String(decoding: header, as: UTF8.self)
        if let width, width < lineWidth { headerText = Self.fit(headerText, width: width) }
        // The lines are assembled as UTF-8 bytes: appending each cell and its padding to a
        // String retained and released every piece.
        var output = Array(display.styled(headerText, "1").utf8)
        output.reserveCapacity(output.count + rows.count * (lineWidth + 1))
        var line: [UInt8] = []
        for start in stride(from: 0, to: cells.count, by: max(1, count)) {
            let row = cells[start..<start + count]
            let measured = cellWidths[start..<start + count]
            output.append(0x0A)
            if let width, width < lineWidth {
                // A line cut at the width is shown without its cells' colours: a cut could
                // otherwise fall inside a style.
                line.removeAll(keepingCapacity: true)
                append(row, measured, widths: widths, alignsRight: alignsRight, to: &line)
                output.append(contentsOf: Self.fit(String(decoding: line, as: UTF8.self), width: width).utf8)
            } else {
                let rowStyles = styles.isEmpty ? [] : (0..<count).map { styles[start + $0] }
                append(row, measured, widths: widths, alignsRight: alignsRight, styles: rowStyles, to: &output)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends one line to `output`: each cell cut or padded to its column's width (`measured`
    /// are the cells' widths).
    private func append(
        _ cells: ArraySlice<String>, _ measured: ArraySlice<Int>, widths: [Int], alignsRight: [Bool],
        styles: [String?] = [], to output: inout [UInt8]
    ) {
        let last = widths.count - 1
        for offset in 0..<widths.count {
            if offset > 0 { output.append(contentsOf: [0x20, 0x20]) }
            var cell = cells[cells.startIndex + offset]
            var cellWidth = measured[measured.startIndex + offset]
            if cellWidth > widths[offset] {
                cell = Self.fit(cell, width: widths[offset])
                cellWidth = DisplayWidth.of(cell)
            }
            if offset < styles.count, let code = styles[offset], !cell.isEmpty {
                cell = TerminalText.styled(cell, code)
            }
            let padding = repeatElement(UInt8(0x20), count: max(0, widths[offset] - cellWidth))
            if alignsRight[offset] {
                output.append(contentsOf: padding)
                Self.appendUTF8(of: &cell, to: &output)
            } else if offset == last {
                Self.appendUTF8(of: &cell, to: &output)
            } else {
                Self.appendUTF8(of: &cell, to: &output)
                output.append(contentsOf: padding)
            }
        }
    }

    /// Appends `text`'s bytes, straight from its storage when it has contiguous UTF-8.
    private static func appendUTF8(of text: inout String, to output: inout [UInt8]) {
        text.withUTF8 { output.append(contentsOf: $0) }
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
