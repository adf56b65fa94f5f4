import Foundation
@testable import FeedParser
@testable import Markup

/// libFuzzer entry point for HTML to text (`HTMLText`), entity decoding (`HTMLEntities`),
/// escaping (`MarkupEscaping`) and the resolving of relative URLs (`HTMLURLResolver`).
///
/// Every input is used twice. As text, it must not crash any of them, must decode back from its
/// escaped form, and, when it has no `<` or `&`, must come out of `HTMLText.plainText` as its
/// lines with runs of spaces collapsed and blank lines dropped. As a program for
/// `HTMLDocument`, it writes well-formed HTML whose text is known, which `plainText` must keep,
/// character for character up to white space, with nothing left of its tags. Both are given to
/// the URL resolver, whose check before tokenizing must not change what it gives.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzHTML(_ start: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: start, count: count)
    let text = String(decoding: bytes, as: UTF8.self)
    let plain = HTMLText.plainText(text)
    _ = HTMLText.looksLikeHTML(text)
    let decoded = HTMLEntities.decode(MarkupEscaping.escape(text))
    guard decoded == text else { fatalError("\(text.debugDescription) escaped decodes as \(decoded.debugDescription)") }
    if !text.utf8.contains(UInt8(ascii: "<")), !text.utf8.contains(UInt8(ascii: "&")) {
        let expected = collapsed(text)
        guard plain == expected else {
            fatalError(
                "\(text.debugDescription) as text is \(plain.debugDescription), not \(expected.debugDescription)")
        }
    }
    let document = HTMLDocument(program: bytes)
    for html in [text, document.html] {
        let checked = HTMLURLResolver.resolvingURLs(in: html, against: resolverBase)
        let tokenized = HTMLURLResolver.resolvingURLs(in: html, against: resolverBase, checkingCandidatesFirst: false)
        guard checked == tokenized else {
            fatalError(
                "\(html.debugDescription) resolves as \(checked.debugDescription) after the check, "
                    + "\(tokenized.debugDescription) without it")
        }
    }
    let rendered = HTMLText.plainText(document.html)
    guard withoutSpaces(rendered) == withoutSpaces(document.text) else {
        fatalError(
            "\(document.html.debugDescription) as text is \(rendered.debugDescription), "
                + "not \(document.text.debugDescription)")
    }
    return 0
}

/// The base the URL resolver resolves against.
private let resolverBase = URL(string: "https://site.example/posts/1/")

/// Plain text as `plainText` lays it out: lines with runs of spaces, tabs and CRs made one
/// space and trimmed, blank lines dropped.
private func collapsed(_ text: String) -> String {
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    return text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)
        .map { line in
            line.split(whereSeparator: isSpace).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
        }
        .filter { !$0.isEmpty }
        .joined(separator: "\n")
}

private func withoutSpaces(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.filter { !" \n\t\r\u{A0}".unicodeScalars.contains($0) }))
}
