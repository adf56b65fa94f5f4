import Foundation
import Testing

/// Reads the package's own sources and checks every `import` against DESIGN.md's module graph.
@Suite("Module graph")
struct ModuleGraphTests {
    /// What each module may import besides the system (Foundation, Glibc, Dispatch, …).
    static let allowed: [String: Set<String>] = [
        "Models": [],
        "Networking": ["Models", "CCurl", "CMappedFile"],
        "URLSessionNetworking": ["Models", "Networking"],
        "DefaultTransport": ["Networking", "URLSessionNetworking"],
        "Storage": ["Models", "GRDB", "GRDBSQLite", "CSQLiteShims"],
        "Store": ["Models", "Storage"],
        "Config": ["Models", "Networking"],
        "Markup": ["Models", "CLibXML2", "CLibXML2Loader"],
        "FeedParser": ["Models", "Markup", "CLibXML2", "CLibXML2Loader"],
        "Feed": ["Models", "FeedParser", "Networking", "Storage", "Store"],
        "Chores": ["Models", "Markup", "Networking", "Storage", "Store"],
        "Accounts": ["Models", "Networking", "FeedParser", "Storage", "Store"],
        "StorageProbe": ["Models", "Storage"],
        "REPL": [
            "Models", "Networking", "DefaultTransport", "Storage", "Store", "Config", "Markup", "FeedParser", "Feed",
            "Chores", "Accounts", "CLibEdit", "CInterrupts", "CTerminal", "ArgumentParser", "Logging",
        ],
    ]

    static let system: Set<String> = [
        "Foundation", "FoundationNetworking", "FoundationXML", "Glibc", "Darwin", "Dispatch", "Synchronization",
    ]

    static var sourcesDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
    }

    /// The modules `file` imports, whatever access level the import has.
    static func imports(of file: URL) throws -> Set<String> {
        let text = try String(contentsOf: file, encoding: .utf8)
        var modules: Set<String> = []
        for line in text.split(separator: "\n") {
            let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
            guard let index = words.firstIndex(of: "import"), index <= 2,
                words[..<index].allSatisfy({
                    ["public", "package", "internal", "private", "fileprivate", "@testable"].contains($0)
                }),
                index + 1 < words.count
            else { continue }
            modules.insert(String(words[index + 1].split(separator: ".")[0]))
        }
        return modules
    }

    /// Every Swift file below a module's source folder.
    static func swiftFiles(of module: String) -> [URL] {
        let directory = sourcesDirectory.appendingPathComponent(module)
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects ?? []).compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
    }

    /// An installed `tidings` is one file (`make install` copies the binary alone): a resource
    /// bundle beside it would be missing, and `Bundle.module` stops the program when it is.
    @Test("no module reads a resource bundle at run time")
    func noResourceBundles() throws {
        for module in Self.allowed.keys.sorted() {
            for file in Self.swiftFiles(of: module) {
                let text = try String(contentsOf: file, encoding: .utf8)
                #expect(!text.contains("Bundle.module"), "\(file.lastPathComponent) reads a resource bundle")
            }
        }
        let manifest = try String(
            contentsOf: Self.sourcesDirectory.deletingLastPathComponent().appendingPathComponent("Package.swift"),
            encoding: .utf8)
        let resourceLines = manifest.split(separator: "\n").filter { $0.contains("resources:") }
        // Test targets only (the parser's and the chores' fixtures).
        #expect(resourceLines.count == 2, "\(resourceLines)")
    }

    /// C targets and shims, which import nothing Swift.
    static let cTargets: Set<String> = [
        "CCurl", "CMappedFile", "CLibXML2", "CLibXML2Loader", "CLibEdit", "CInterrupts", "CTerminal", "CSQLiteShims",
    ]

    @Test("every Swift module under Sources has its place in the graph")
    func everyModuleChecked() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sourcesDirectory.path)
        for folder in folders.sorted() where !Self.cTargets.contains(folder) {
            #expect(Self.allowed[folder] != nil, "\(folder) is not in ModuleGraphTests.allowed")
        }
    }

    @Test("each module imports only what the design allows", arguments: allowed.keys.sorted())
    func importsFollowTheGraph(module: String) throws {
        let files = Self.swiftFiles(of: module)
        #expect(!files.isEmpty, "no sources found for \(module)")
        let allowed = Self.allowed[module, default: []].union(Self.system)
        for file in files {
            let extra = try Self.imports(of: file).subtracting(allowed)
            #expect(extra.isEmpty, "\(file.lastPathComponent) imports \(extra.sorted()), which \(module) may not")
        }
    }

    /// The access level of each import of `module` in `file` (`internal` when none is written).
    static func importLevels(of module: String, in file: URL) throws -> [String] {
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
            guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                words[index + 1].split(separator: ".")[0] == module
            else { return nil }
            return words[..<index].first { ["public", "package", "internal", "private", "fileprivate"].contains($0) }
                .map(String.init) ?? "internal"
        }
    }

    @Test(
        "Feed's, Chores' and Accounts' public interfaces mention no Storage type: none imports Storage publicly; each re-exports only the values its API speaks",
        arguments: [("Feed", ["Models", "FeedParser"]), ("Chores", ["Models"]), ("FeedParser", ["Models"]), ("Accounts", ["Models"])])
    func servicesHideStorage(_ module: String, reexports: [String]) throws {
        // With InternalImportsByDefault, a public declaration that names a type of a module not
        // imported publicly does not compile: no `public import Storage` means no Storage type
        // in the module's public interface (package-level API, for this package's own targets, may).
        for file in Self.swiftFiles(of: module) {
            let levels = try Self.importLevels(of: "Storage", in: file)
            #expect(!levels.contains("public"), "\(file.lastPathComponent) imports Storage publicly")
        }
        for file in Self.swiftFiles(of: module) {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            where line.contains("@_exported") {
                #expect(
                    reexports.contains { line.hasSuffix("import \($0)") },
                    "\(file.lastPathComponent) re-exports: \(line)")
            }
        }
    }

    /// The REPL's composition root: the only files that may see Storage.
    static let compositionRoot: Set<String> = [
        "AppEnvironment.swift", "StorageConfigCache.swift", "StorageSettings.swift",
    ]

    @Test("outside the composition root, the REPL does not import Storage")
    func replSeesStorageOnlyAtTheRoot() throws {
        var importing: Set<String> = []
        for file in Self.swiftFiles(of: "REPL") where try Self.imports(of: file).contains("Storage") {
            importing.insert(file.lastPathComponent)
        }
        #expect(importing.isSubset(of: Self.compositionRoot), "\(importing.subtracting(Self.compositionRoot).sorted())")
    }

    @Test("the import level reader sees every form")
    func levelReaderSeesLevels() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("levels-\(UUID().uuidString).swift")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("public import Storage\nimport Storage\npackage import Storage.Sub\nimport GRDB\n".utf8).write(
            to: file)
        #expect(try Self.importLevels(of: "Storage", in: file) == ["public", "internal", "package"])
    }

    @Test("nothing imports the REPL")
    func nothingImportsREPL() throws {
        for module in Self.allowed.keys where module != "REPL" {
            for file in Self.swiftFiles(of: module) {
                #expect(try !Self.imports(of: file).contains("REPL"), "\(file.lastPathComponent) imports REPL")
            }
        }
    }

    @Test("the import reader sees every form of import")
    func readerSeesImports() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("imports-\(UUID().uuidString).swift")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(
            "import Foundation\ninternal import GRDB\n@testable import REPL\npublic import Models.Sub\n// import Nope\n"
                .utf8
        ).write(to: file)
        #expect(try Self.imports(of: file) == ["Foundation", "GRDB", "REPL", "Models"])
    }
}
