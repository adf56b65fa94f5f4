// swift-tools-version: 6.1
import PackageDescription

// An app that depends on the feed parser alone, by path to this checkout (`make test` builds and
// runs it, and checks that its build holds no GRDB and no libcurl).
let package = Package(
    name: "FeedParserExample",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Tidings", path: "../..")],
    targets: [
        .executableTarget(
            name: "FeedParserExample", dependencies: [.product(name: "FeedParser", package: "Tidings")])
    ]
)
