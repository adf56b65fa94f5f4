// swift-tools-version: 6.1
import PackageDescription

// An app that depends on the Feed library, the store it hands the service and the platform's
// transport, by path to this checkout (`make test` builds and runs it; see the README's Documentation section).
let package = Package(
    name: "FeedExample",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Tidings", path: "../..")],
    targets: [
        .executableTarget(
            name: "FeedExample",
            dependencies: [
                .product(name: "Feed", package: "Tidings"), .product(name: "Store", package: "Tidings"),
                .product(name: "DefaultTransport", package: "Tidings"),
            ])
    ]
)
