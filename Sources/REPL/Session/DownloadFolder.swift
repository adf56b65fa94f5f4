import Foundation
import Networking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where `item download` saves an enclosure, and under which name. A name comes from a feed, so
/// it is made safe here: whatever the feed says, the file lands directly in the download
/// directory, under a name a shell and a file manager show as it is.
enum DownloadFolder {
    /// The most bytes of a file name: ext4 and most file systems allow 255, and `.part` and
    /// ` (99)` must still fit.
    static let maxNameBytes = 200

    /// The directory downloads go to without `--to`: `$XDG_DOWNLOAD_DIR` when it is set and
    /// absolute (the XDG rule: a relative value is ignored), else `Downloads` in `$HOME` (else in
    /// the user's home directory).
    static func defaultDirectory(environment: [String: String]) -> URL {
        if let xdg = environment["XDG_DOWNLOAD_DIR"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent("Downloads", isDirectory: true)
    }

    /// The file name for an enclosure at `url`: the last non-empty segment of its path,
    /// percent-decoded, then made safe. `/` and `\` (a `%2F` in the segment) become `_`; control
    /// characters, escape sequences and invisible format characters go; leading dots, spaces and
    /// dashes go (no hidden file, no `..`, nothing read as an option); it is cut to
    /// `maxNameBytes`, keeping a short extension. Nothing left: `download`.
    static func fileName(for url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        let segment = path.split(separator: "/").last.map(String.init) ?? ""
        var name = TerminalText.sanitized(segment.removingPercentEncoding ?? segment)
        name = String(name.map { $0 == "/" || $0 == "\\" ? "_" : $0 })
        name = String(name.drop { $0 == "." || $0 == "-" || $0.isWhitespace })
        while let last = name.last, last.isWhitespace || last == "." { name.removeLast() }
        name = bounded(name)
        return name.isEmpty ? "download" : name
    }

    /// `name` cut to `maxNameBytes` of UTF-8 on a character boundary, keeping its extension when
    /// that is short (`.mp3`, `.m4a`).
    static func bounded(_ name: String) -> String {
        guard name.utf8.count > maxNameBytes else { return name }
        let (stem, suffix) = split(name)
        let keep = suffix.utf8.count <= 16 ? suffix : ""
        var cut = ""
        for character in keep.isEmpty ? name : stem {
            guard cut.utf8.count + character.utf8.count + keep.utf8.count <= maxNameBytes else { break }
            cut.append(character)
        }
        return cut + keep
    }

    /// `name` numbered `n`, before its extension: `episode (1).mp3`.
    static func numbered(_ name: String, _ n: Int) -> String {
        let (stem, suffix) = split(name)
        return "\(stem) (\(n))\(suffix)"
    }

    /// The stem and the extension (with its dot) of `name`; no extension when the only dot
    /// starts the name.
    private static func split(_ name: String) -> (stem: String, suffix: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[dot...]))
    }

    /// Where an enclosure goes.
    enum Choice: Equatable {
        /// Download (or resume) to this file.
        case download(URL)
        /// This file already holds it.
        case downloaded(URL, bytes: Int64)
    }

    /// The most names tried (`NAME`, `NAME (1)`, … `NAME (99)`).
    static let maxCandidates = 100

    /// The file for the enclosure at `source` named `name` in `directory`. Each name in turn,
    /// `NAME`, then `NAME (1)` and on:
    /// - a regular file there of the length the server gives (else the feed declares), or, when
    ///   neither gives one, recorded as downloaded from `source`: it is already downloaded;
    /// - any other file there (of another length, a directory, a link): the next name;
    /// - a `NAME.part` recorded as another address's partial download: the next name;
    /// - else this name, resuming its `.part` when there is one.
    /// `length` (a HEAD request) is asked at most once, and only when a file is in the way.
    static func choose(
        name: String, in directory: URL, source: URL, declaredLength: Int64?,
        length: () async throws -> Int64?
    ) async throws -> Choice? {
        var asked = false
        var expected: Int64?
        for n in 0..<maxCandidates {
            let file = directory.appendingPathComponent(n == 0 ? name : numbered(name, n))
            if let kind = fileKind(file) {
                guard case .regular(let size) = kind else { continue }
                if !asked {
                    expected = try await length() ?? declaredLength.flatMap { $0 > 0 ? $0 : nil }
                    asked = true
                }
                if let expected {
                    if size == expected { return .downloaded(file, bytes: size) }
                } else if FileDownloader.file(file, isFrom: source) == true {
                    return .downloaded(file, bytes: size)
                }
                continue
            }
            let part = FileDownloader.partialFile(for: file)
            if let kind = fileKind(part) {
                guard case .regular = kind, FileDownloader.file(part, isFrom: source) != false else { continue }
            }
            return .download(file)
        }
        return nil
    }

    /// What is at a path, without following a symbolic link.
    private enum FileKind {
        case regular(Int64)
        case other
    }

    /// `nil` when nothing is at `url`.
    private static func fileKind(_ url: URL) -> FileKind? {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT == S_IFREG ? .regular(Int64(status.st_size)) : .other
    }
}
