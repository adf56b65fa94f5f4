import Feed
import Foundation
import Models
import Networking

/// `item download`: an article's enclosure (a podcast episode) saved to a file, as newsboat's
/// podboat saves it.
enum DownloadCommands {
    static let commands: [Command] = [
        Command(
            ["item download"], usage: "item download <ID> [N] [--to DIR] [--no-progress]",
            summary:
                "save the article's enclosure N (default 1, as item show lists them) to $XDG_DOWNLOAD_DIR, "
                + "else ~/Downloads, or to DIR: NAME.part while it arrives, NAME once whole and of the length "
                + "announced; run again, it resumes the .part with a range request (Ctrl-C keeps it). A different "
                + "file of that name is never replaced: NAME (1) instead. A progress bar on a terminal",
            example: "item download 12",
            arguments: [.init(name: "ID", kind: .itemID), .init(name: "N", kind: .text, count: .optional)],
            options: [.value("to", .path), .flag("no-progress")]
        ) { try await download($0) }
    ]

    /// `item download <ID> [N] [--to DIR] [--no-progress]`.
    private static func download(_ input: CommandInput) async throws -> CommandOutput {
        let context = input.context
        let id = try input.id("ID")
        let (number, enclosure) = try await Self.enclosure(of: id, input.text("N"), context)
        guard let downloader = context.downloader else {
            throw CommandError(
                code: "download_failed",
                message: "downloads need a transport that streams to a file; this build has none")
        }
        let directory = try await Self.directory(input, context)
        let name = DownloadFolder.fileName(for: enclosure.url)
        let choice = try await DownloadFolder.choose(
            name: name, in: directory, source: enclosure.url, declaredLength: enclosure.length,
            length: {
                do throws(NetworkError) {
                    return try await downloader.length(of: enclosure.url)
                } catch {
                    throw Self.failure(error, id: id, number: number, part: nil)
                }
            })
        var json: [String: JSONValue] = ["id": .int(id), "enclosure": .int(number)]
        switch choice {
        case nil:
            throw CommandError(
                code: "file_error",
                message:
                    "\(name) and \(DownloadFolder.maxCandidates - 1) numbered names in \(directory.path) are other "
                    + "files; save it elsewhere with --to DIR")
        case .downloaded(let file, let bytes)?:
            json.merge(["path": .string(file.path), "bytes": .int(bytes), "resumed": .bool(false)]) { $1 }
            json["already_downloaded"] = .bool(true)
            return CommandOutput(
                text: "already downloaded: \(file.path) (\(ProgressBar.bytes(bytes)))", json: .object(json))
        case .download(let file)?:
            let result = try await Self.transfer(
                enclosure, to: file, with: downloader, showing: !input.arguments.has("no-progress"), context,
                id: id, number: number)
            json.merge([
                "path": .string(file.path), "bytes": .int(result.bytes), "resumed": .bool(result.resumedFrom > 0),
            ]) { $1 }
            json["already_downloaded"] = .bool(false)
            var text = "saved item #\(id)'s enclosure \(number) to \(file.path) (\(ProgressBar.bytes(result.bytes))"
            if result.resumedFrom > 0 { text += ", resumed at \(ProgressBar.bytes(result.resumedFrom))" }
            text += ")"
            if file.lastPathComponent != name { text += "; \(name) there is another file" }
            return CommandOutput(text: text, json: .object(json))
        }
    }

    /// Enclosure `word` (1 when `nil`) of article `id`, as `item show` numbers them, when it is a
    /// web address.
    private static func enclosure(of id: Int64, _ word: String?, _ context: CommandContext) async throws -> (
        Int, Enclosure
    ) {
        let enclosures = try await context.feeds.article(id: id).article.enclosures
        guard let number = Int(word ?? "1"), number >= 1 else {
            throw CommandError.usage(
                "N must be an enclosure number like 2, as item show lists them (got \"\(word ?? "")\")")
        }
        guard number <= enclosures.count else {
            let has =
                enclosures.isEmpty
                ? "no enclosure" : enclosures.count == 1 ? "one enclosure" : "\(enclosures.count) enclosures"
            let there = enclosures.isEmpty ? " to download" : "; there is no enclosure \(number)"
            throw CommandError(code: "no_enclosure", message: "item #\(id) has \(has)\(there)")
        }
        let enclosure = enclosures[number - 1]
        guard NetworkError.unfetchableScheme(enclosure.url) == nil else {
            throw CommandError(
                code: "unsafe_link",
                message:
                    "enclosure \(number) of item #\(id) is not a web address: "
                    + TerminalText.sanitized(enclosure.url.absoluteString))
        }
        return (number, enclosure)
    }

    /// `--to DIR` (which must exist), else the download directory (made when missing).
    private static func directory(_ input: CommandInput, _ context: CommandContext) async throws -> URL {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        if let given = input.arguments.value("to") {
            let path = (given as NSString).expandingTildeInPath
            guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CommandError(code: "file_error", message: "--to: no such directory: \(path)")
            }
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        // The download-dir setting, else the default the composition root worked out.
        let setting = await context.settingValues().stored["set.download-dir"]
        guard let directory = setting.map({ URL(fileURLWithPath: $0, isDirectory: true) }) ?? context.downloadDirectory
        else {
            throw CommandError(code: "file_error", message: "no download directory: give one with --to DIR")
        }
        do {
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw CommandError(
                code: "file_error", message: "cannot create the download directory \(directory.path): \(error)")
        }
        return directory
    }

    /// Downloads `enclosure` to `file`, drawing the progress bar on a terminal when `showing`.
    private static func transfer(
        _ enclosure: Enclosure, to file: URL, with downloader: FileDownloader, showing: Bool,
        _ context: CommandContext, id: Int64, number: Int
    ) async throws -> DownloadResult {
        let display = context.display
        let bar =
            showing && display.isTerminal
            ? ProgressBar(name: file.lastPathComponent, width: { display.width ?? 80 }, draw: context.progress)
            : nil
        defer { if bar != nil { context.progress(nil) } }
        do throws(NetworkError) {
            return try await downloader.download(
                enclosure.url, to: file, expectedLength: enclosure.length, progress: { bar?.update($0) })
        } catch {
            throw failure(error, id: id, number: number, part: FileDownloader.partialFile(for: file))
        }
    }

    /// A download's error as the user sees it, saying where the partial file is kept.
    private static func failure(_ error: NetworkError, id: Int64, number: Int, part: URL?) -> CommandError {
        let size = part.flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int64 } ?? 0
        let kept =
            size > 0 ? "; the partial file is kept: \(part?.path ?? "") (item download \(id) \(number) resumes it)" : ""
        let what = "the download of item #\(id)'s enclosure \(number)"
        let message = TerminalText.sanitized(error.errorDescription ?? "\(error)")
        switch error {
        case .cancelled:
            return CommandError(code: "interrupted", message: "interrupted" + kept, exitStatus: 130)
        case .lengthMismatch:
            return CommandError(
                code: "length_mismatch", message: "item #\(id)'s enclosure \(number): \(message)\(kept)")
        case .file:
            return CommandError(code: "file_error", message: message + kept)
        case .unsupportedScheme:
            return CommandError(code: "unsafe_link", message: "\(what) failed: \(message)")
        default:
            return CommandError(code: "download_failed", message: "\(what) failed: \(message)\(kept)")
        }
    }
}
