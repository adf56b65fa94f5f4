import FeedParser
import Foundation

// `ParseTimer LIST REPS`: parses every file named in LIST (one path a line), all read into
// memory first, REPS times, and prints the median seconds of one pass. process-bench.sh runs it
// beside fastfeedparser, which it measures the same way (in-process, documents in memory), so
// that a set of 250 small feeds compares parsers and not 250 process starts.

let arguments = CommandLine.arguments
guard arguments.count == 3, let reps = Int(arguments[2]), reps > 0,
    let list = try? String(contentsOfFile: arguments[1], encoding: .utf8)
else {
    FileHandle.standardError.write(Data("usage: ParseTimer LIST REPS\n".utf8))
    exit(2)
}
var documents: [(Data, URL)] = []
for path in list.split(separator: "\n").map(String.init) where !path.isEmpty {
    let url = URL(fileURLWithPath: path)
    guard let data = try? Data(contentsOf: url) else {
        FileHandle.standardError.write(Data("ParseTimer: cannot read \(path)\n".utf8))
        exit(1)
    }
    documents.append((data, url))
}
var items = 0
var seconds: [Double] = []
for _ in 0..<reps {
    let start = ContinuousClock.now
    items = 0
    for (data, url) in documents {
        do {
            items += try FeedDocumentParser.parse(data: data, url: url).items.count
        } catch {
            FileHandle.standardError.write(Data("ParseTimer: \(url.path): \(error)\n".utf8))
            exit(1)
        }
    }
    let elapsed = ContinuousClock.now - start
    seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
}
seconds.sort()
FileHandle.standardError.write(Data("ParseTimer: \(documents.count) files, \(items) items a pass\n".utf8))
print(seconds[seconds.count / 2])
