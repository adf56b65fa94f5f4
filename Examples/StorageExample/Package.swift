// swift-tools-version: 6.1
import PackageDescription

// An app that depends on the Storage library alone (and Models, whose values Storage takes and
// returns), by path to this checkout (`make test` builds and runs it).
let package = Package(
    name: "StorageExample",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Tidings", path: "../..")],
    targets: [
        .executableTarget(
            name: "StorageExample",
            dependencies: [
                .product(name: "Storage", package: "Tidings"), .product(name: "Models", package: "Tidings"),
            ])
    ]
)
