import Feed
import Foundation
import Markup

/// An article's HTML as text for a terminal, the way newsboat and w3m show it: paragraphs and
/// headings apart by blank lines, lists with bullets or numbers and indentation, `<pre>` kept
/// verbatim, quotes marked, tables as aligned rows, images as `[image: alt]`, and links as
/// numbered references (`[1]`) whose targets are listed after the text. Lines are wrapped by
/// display columns.
struct ArticleText {
    /// The text, without the link list.
    var body: String
    /// The link targets, in reference order (`[1]` is the first).
    var links: [String]

    /// Text already plain.
    init(body: String, links: [String]) {
        self.body = body
        self.links = links
    }

    /// Renders `html` wrapped to `width` columns (`nil`: no wrapping).
    init(html: String, width: Int?) {
        var renderer = Renderer(width: width)
        renderer.render(html)
        body = renderer.finish()
        links = renderer.links
    }
}

/// The block structure a renderer is in.
private struct Renderer {
    let width: Int?
    var lines: [String] = []
    var links: [String] = []
    private var inline = ""
    private var listStack: [(ordered: Bool, next: Int)] = []
    private var quoteDepth = 0
    private var preDepth = 0
    private var skipDepth = 0
    private var linkStack: [String?] = []
    private var pendingItemMarker: String?
    private var table: [[String]]?
    private var row: [String]?
    private var pendingBlank = false

    init(width: Int?) { self.width = width }

    /// The blocks (`HTMLElements.block`) set apart by a blank line.
    static let spaced: Set<String> = [
        "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "blockquote", "pre", "table", "figure", "hr", "dl",
    ]

    /// Renders `html`, read by `HTMLTokenizer`.
    mutating func render(_ html: String) {
        var html = html
        html.withUTF8 { bytes in
            func string(_ range: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            var tokenizer = HTMLTokenizer(bytes)
            while let token = tokenizer.next() {
                switch token {
                case .text(let range), .rawText(let range, _): text(string(range))
                case .cdata(let range): text(string(range), decodingEntities: false)
                case .startTag(let start): tag(start, closing: false, in: bytes)
                case .endTag(let end): tag(end, closing: true, in: bytes)
                case .comment, .declaration: continue
                }
            }
        }
    }

    mutating func finish() -> String {
        flush()
        if table != nil { endTable() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    // MARK: Text

    private mutating func text(_ raw: String, decodingEntities: Bool = true) {
        guard skipDepth == 0, !raw.isEmpty else { return }
        let decoded = decodingEntities ? HTMLEntities.decode(raw) : raw
        if preDepth > 0 {
            inline += decoded
            return
        }
        var collapsed = ""
        var lastWasSpace = inline.isEmpty || inline.last == " " || inline.last == "\n"
        for character in decoded {
            if character.isWhitespace {
                if !lastWasSpace { collapsed.append(" ") }
                lastWasSpace = true
            } else {
                collapsed.append(character)
                lastWasSpace = false
            }
        }
        if var cells = row {
            if cells.isEmpty { cells.append("") }
            cells[cells.count - 1] += collapsed
            row = cells
        } else {
            inline += collapsed
        }
    }

    // MARK: Tags

    private mutating func tag(_ tag: HTMLTag, closing: Bool, in bytes: UnsafeBufferPointer<UInt8>) {
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[tag.nameRange]), as: UTF8.self).lowercased()
        if ["script", "style", "head", "title", "template", "noscript"].contains(name) {
            skipDepth = max(0, skipDepth + (closing ? -1 : (tag.isSelfClosing ? 0 : 1)))
            return
        }
        guard skipDepth == 0 else { return }
        if closing { close(name) } else { open(name, HTMLAttributes.parse(tag, in: bytes)) }
    }

    private mutating func open(_ name: String, _ attributes: [String: String]) {
        switch name {
        case "br": lineBreak()
        case "img":
            let alt = attributes["alt"].map(HTMLEntities.decode)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            text(alt.isEmpty ? "[image]" : "[image: \(alt)]")
        case "a":
            let href = attributes["href"]?.trimmingCharacters(in: .whitespacesAndNewlines)
            linkStack.append(href.flatMap { $0.isEmpty || $0.hasPrefix("#") ? nil : HTMLEntities.decode($0) })
        case "table":
            block(name)
            table = []
        case "tr":
            if let current = row { table?.append(current) }
            row = []
        case "td", "th":
            if row == nil { row = [] }
            row?.append("")
        case "hr":
            block(name)
            lines.append(String(repeating: "─", count: min(width ?? 40, 40)))
            pendingBlank = true
        case "li":
            flush()
            if var list = listStack.last {
                pendingItemMarker =
                    list.ordered ? "\(list.next). " : (["•", "◦", "▪"][(listStack.count - 1) % 3] + " ")
                list.next += 1
                listStack[listStack.count - 1] = list
            } else {
                pendingItemMarker = "• "
            }
        case "ul", "ol":
            // A list inside a list item goes on under it; a list on its own is a block.
            if listStack.isEmpty { block(name) } else { flush() }
            let start = attributes["start"].flatMap { Int($0) } ?? 1
            listStack.append((name == "ol", start))
        case "blockquote":
            block(name)
            quoteDepth += 1
        case "pre":
            block(name)
            preDepth += 1
        default:
            if HTMLElements.block.contains(PackedName(name)) { block(name) }
        }
    }

    private mutating func close(_ name: String) {
        switch name {
        case "a":
            guard let target = linkStack.popLast() else { return }
            if let target {
                if !links.contains(target) { links.append(target) }
                text("[\((links.firstIndex(of: target) ?? 0) + 1)]")
            }
        case "td", "th", "tr": break
        case "table": endTable()
        case "ul", "ol":
            flush()
            _ = listStack.popLast()
            if listStack.isEmpty { pendingBlank = true }
        case "blockquote":
            flush()
            quoteDepth = max(0, quoteDepth - 1)
            pendingBlank = true
        case "pre":
            flush()
            preDepth = max(0, preDepth - 1)
            pendingBlank = true
        case "h1", "h2", "h3", "h4", "h5", "h6":
            flush(heading: true)
            pendingBlank = true
        default:
            if HTMLElements.block.contains(PackedName(name)) {
                flush()
                if Self.spaced.contains(name) { pendingBlank = true }
            }
        }
    }

    // MARK: Blocks

    private mutating func block(_ name: String) {
        flush()
        if Self.spaced.contains(name) || name.first == "h" { pendingBlank = true }
    }

    private mutating func lineBreak() {
        if preDepth > 0 {
            inline += "\n"
        } else {
            flush(keepMarker: true)
        }
    }

    /// The prefix of every line at the current depth: quote marks and list indentation.
    private var indent: String {
        String(repeating: "│ ", count: quoteDepth) + String(repeating: "  ", count: max(0, listStack.count - 1))
    }

    /// Ends the current run of inline text as lines.
    private mutating func flush(heading: Bool = false, keepMarker: Bool = false) {
        let text = preDepth > 0 ? inline : inline.trimmingCharacters(in: .whitespaces)
        inline = ""
        guard !text.isEmpty || (preDepth > 0 && keepMarker) else { return }
        if pendingBlank, !lines.isEmpty, lines.last?.isEmpty == false { lines.append("") }
        pendingBlank = false
        if preDepth > 0 {
            // Verbatim: never re-wrapped.
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                lines.append(indent + String(line))
            }
            while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
            return
        }
        let marker = pendingItemMarker ?? ""
        if !keepMarker || pendingItemMarker != nil { pendingItemMarker = nil }
        let continuation = indent + String(repeating: " ", count: DisplayWidth.of(marker))
        let first = indent + marker
        let available = width.map { max(10, $0 - DisplayWidth.of(continuation)) }
        let wrapped = TextWrap.wrap(text, width: available).split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in wrapped.enumerated() {
            lines.append((index == 0 ? first : continuation) + line)
        }
        if heading, let last = lines.last {
            let underline = String(repeating: "─", count: min(DisplayWidth.of(last) - DisplayWidth.of(indent), 60))
            lines.append(indent + underline)
        }
    }

    private mutating func endTable() {
        if let current = row { table?.append(current) }
        row = nil
        guard let rows = table, !rows.isEmpty else {
            table = nil
            return
        }
        table = nil
        if pendingBlank, !lines.isEmpty, lines.last?.isEmpty == false { lines.append("") }
        let cells = rows.map { $0.map { $0.trimmingCharacters(in: .whitespaces) } }
        let columns = cells.map(\.count).max() ?? 0
        var widths = (0..<columns).map { column in
            cells.map { column < $0.count ? DisplayWidth.of($0[column]) : 0 }.max() ?? 0
        }
        if let width {
            let available = max(columns * 4, width - DisplayWidth.of(indent) - 2 * (columns - 1))
            while widths.reduce(0, +) > available, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }) {
                widths[widest] -= 1
            }
        }
        for row in cells {
            let parts = (0..<columns).map { column in
                DisplayWidth.pad(
                    DisplayWidth.fit(column < row.count ? row[column] : "", width: widths[column]), to: widths[column])
            }
            lines.append(
                indent
                    + parts.joined(separator: "  ").replacingOccurrences(
                        of: " +$", with: "", options: .regularExpression))
        }
        pendingBlank = true
    }
}
