// swift-tools-version: 6.1
import PackageDescription

/// Settings every target of this package shares: Swift 6 language mode is the default for
/// tools-version 6, and these upcoming features keep the code honest about concurrency and
/// imports.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// Apple platforms: `URLSessionTransport` is their network transport (libcurl's `CCurl` is Linux only).
let applePlatforms: [Platform] = [.macOS, .iOS, .tvOS, .watchOS, .visionOS]

let package = Package(
    name: "Tidings",
    // Mutex (Synchronization) needs macOS 15, iOS 18 and their siblings.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Models", targets: ["Models"]),
        .library(name: "Networking", targets: ["Networking"]),
        .library(name: "URLSessionNetworking", targets: ["URLSessionNetworking"]),
        .library(name: "DefaultTransport", targets: ["DefaultTransport"]),
        .library(name: "Storage", targets: ["Storage"]),
        .library(name: "Store", targets: ["Store"]),
        .library(name: "Config", targets: ["Config"]),
        .library(name: "FeedParser", targets: ["FeedParser"]),
        .library(name: "Feed", targets: ["Feed"]),
        .library(name: "Chores", targets: ["Chores"]),
        .library(name: "Accounts", targets: ["Accounts"]),
        .executable(name: "tidings", targets: ["REPL"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // `make docs` only: a command plugin, so no target links it and `swift build` never builds it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0"),
    ],
    targets: [
        .target(name: "Models", swiftSettings: swiftSettings),
        .testTarget(name: "ModelsTests", dependencies: ["Models"], swiftSettings: swiftSettings),

        // libcurl, opened with dlopen on the first request (no HTTP stack at start-up); Linux only.
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // Private mappings of the feed files a user names, safe against the file shrinking.
        .target(name: "CMappedFile"),
        .target(
            name: "Networking",
            dependencies: ["Models", "CMappedFile", .target(name: "CCurl", condition: .when(platforms: [.linux]))],
            swiftSettings: swiftSettings),
        // URLSessionTransport: FoundationNetworking on Linux, so nothing the executable links
        // depends on it there (see DefaultTransport).
        .target(name: "URLSessionNetworking", dependencies: ["Networking"], swiftSettings: swiftSettings),
        // The platform's network transport for a composition root: CurlTransport on Linux,
        // URLSessionTransport on Apple platforms.
        .target(
            name: "DefaultTransport",
            dependencies: [
                "Networking", .target(name: "URLSessionNetworking", condition: .when(platforms: applePlatforms)),
            ],
            swiftSettings: swiftSettings),
        // Test doubles for Networking (InMemoryTransport), for test targets only: it imports
        // Testing so that an unscripted call fails the test that made it. Also the gates a test
        // awaits an event with instead of sleeping (Watched, Gate).
        .target(
            name: "NetworkingTestSupport", dependencies: ["Networking"], path: "Tests/Support/NetworkingTestSupport",
            swiftSettings: swiftSettings),
        .testTarget(
            name: "NetworkingTests",
            dependencies: [
                "Networking", "NetworkingTestSupport", "URLSessionNetworking", "DefaultTransport", "Models",
                "CMappedFile",
                .target(name: "CCurl", condition: .when(platforms: [.linux])),
            ],
            exclude: ["Support/test_server.py"],
            swiftSettings: swiftSettings),

        // What Storage asks of SQLite's C API beyond GRDB: the substring index's FTS5 tokenizer,
        // and a connection setting behind a variadic call.
        .target(name: "CSQLiteShims", linkerSettings: [.linkedLibrary("sqlite3")]),
        .target(
            name: "Storage",
            dependencies: [
                "Models", "CSQLiteShims", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "StorageTests",
            dependencies: [
                "Storage", "Models", "StorageProbe", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),

        // The one local database handle an app opens and hands to its services: Storage stays
        // behind it, out of the services' public interfaces.
        .target(name: "Store", dependencies: ["Models", "Storage"], swiftSettings: swiftSettings),
        .testTarget(name: "StoreTests", dependencies: ["Store", "Storage", "Models"], swiftSettings: swiftSettings),

        // Runs long merges until killed; the storage crash test drives it. Not a user command.
        .executableTarget(
            name: "StorageProbe", dependencies: ["Storage", "Models"], swiftSettings: swiftSettings),
        // The start-up goal's floor on this stack (process-bench.sh; `make start-floor`).
        .executableTarget(
            name: "StartFloor",
            dependencies: ["CSQLiteShims", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tools/StartFloor", swiftSettings: swiftSettings),

        .target(
            name: "Config",
            dependencies: ["Models", "Networking"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "ConfigTests", dependencies: ["Config", "Models", "Networking", "NetworkingTestSupport"],
            exclude: ["Support/config_server.py"],
            swiftSettings: swiftSettings),

        // What both the feed parser and CalDAV read markup with: libxml2 opened on first use, an
        // XML tree with limits, HTML entities and attributes, escaping.
        .target(
            name: "Markup", dependencies: ["Models", "CLibXML2", "CLibXML2Loader"], swiftSettings: swiftSettings),
        .testTarget(
            name: "MarkupTests", dependencies: ["Markup", "Models", "CLibXML2", "CLibXML2Loader"],
            swiftSettings: swiftSettings),
        // RSS, Atom and JSON Feed, OPML, feed discovery and HTML to text: a parser an app can
        // take alone, without a database or an HTTP stack.
        .target(
            name: "FeedParser", dependencies: ["Models", "Markup", "CLibXML2", "CLibXML2Loader"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "FeedParserTests",
            dependencies: ["FeedParser", "Markup", "Models", "CLibXML2", "CLibXML2Loader"],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings),
        // Subscriptions, refreshes and the feed and article view models, on the store.
        .target(
            name: "Feed",
            dependencies: ["Models", "FeedParser", "Networking", "Storage", "Store"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "FeedTests",
            dependencies: [
                "Feed", "FeedParser", "Models", "Networking", "NetworkingTestSupport", "Storage", "Store",
                "DefaultTransport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings),
        // A household's chores: the task service, its view model and undo, and sharing through
        // a CalDAV collection.
        .target(
            name: "Chores",
            dependencies: ["Models", "Networking", "Storage", "Store", "Markup"],
            swiftSettings: swiftSettings),
        // Real CalDAV servers (Radicale, Xandikos) for the tests that share chores (the Python
        // that `make deps` installs under .build/tools/caldav runs them).
        .target(name: "CalDAVTestSupport", path: "Tests/Support/CalDAVTestSupport", swiftSettings: swiftSettings),
        .testTarget(
            name: "ChoresTests",
            dependencies: [
                "Chores", "Markup", "Models", "Networking", "NetworkingTestSupport", "CalDAVTestSupport", "Storage",
                "Store", "DefaultTransport", "Feed",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings),

        // Feed sync accounts: a self-hosted feed server (the Fever API) that owns the
        // subscriptions and fetches the feeds, mirrored by the reader.
        .target(
            name: "Accounts", dependencies: ["Models", "Networking", "FeedParser", "Storage", "Store"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "AccountsTests",
            dependencies: ["Accounts", "Networking", "NetworkingTestSupport", "DefaultTransport", "Storage", "Store", "Models"],
            swiftSettings: swiftSettings),

        // libxml2's SAX2 interface: the feed parser's XML reader. Its headers only: the library
        // is opened on first use by CLibXML2Loader, so that a command that parses nothing starts
        // without it.
        .target(
            name: "CLibXML2Loader", dependencies: ["CLibXML2"],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(
            name: "CLibEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]),
        // The C library's character widths (wcwidth) under a UTF-8 character type.
        .target(name: "CTerminal"),
        // Ctrl-C: the SIGINT handler and libedit's key reader.
        .target(name: "CInterrupts", dependencies: ["CLibEdit"]),
        .executableTarget(
            name: "REPL",
            dependencies: [
                "Models", "Networking", "DefaultTransport", "Storage", "Store", "Config", "Markup", "FeedParser",
                "Feed",
                "Chores", "Accounts", "CLibEdit", "CInterrupts", "CTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "REPLTests",
            dependencies: [
                "REPL", "Networking", "NetworkingTestSupport", "CalDAVTestSupport", "Models", "Feed", "Chores", "Accounts",
                "FeedParser", "Config", "Store",
            ],
            swiftSettings: swiftSettings),
    ]
)

// libFuzzer targets, one per parser (Fuzz/README.md). They are declared only when TIDINGS_FUZZ=1,
// as `make fuzz` sets it, so a plain `swift build` or `swift test` never sees them; being in
// this package, they reach `package` (and, in debug builds, `@testable`) symbols. The
// tokenizer's target compiles the REPL's one source file through a symbolic link, since an
// executable target cannot be imported.
if Context.environment["TIDINGS_FUZZ"] == "1" {
    let fuzzTargets: [(product: String, target: String, dependencies: [Target.Dependency])] = [
        ("fuzz-xml", "XMLFuzz", ["FeedParser"]),
        ("fuzz-json", "JSONFuzz", ["FeedParser"]),
        ("fuzz-html", "HTMLFuzz", ["FeedParser", "Markup"]),
        ("fuzz-opml", "OPMLFuzz", ["FeedParser", "Markup"]),
        ("fuzz-dates", "DateFuzz", ["FeedParser", "Models"]),
        ("fuzz-tokenizer", "TokenizerFuzz", []),
        ("fuzz-ical", "ICalendarFuzz", ["Chores"]),
        ("fuzz-dav", "DAVFuzz", ["Chores", "Markup"]),
    ]
    for fuzz in fuzzTargets {
        package.targets.append(
            .executableTarget(
                name: fuzz.target, dependencies: fuzz.dependencies, path: "Fuzz/Targets/\(fuzz.target)",
                swiftSettings: swiftSettings))
        package.products.append(.executable(name: fuzz.product, targets: [fuzz.target]))
    }
}
