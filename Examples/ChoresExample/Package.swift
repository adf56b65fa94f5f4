// swift-tools-version: 6.1
import PackageDescription

// An app that keeps a household's chores with the Chores library and the store it hands the
// service, by path to this checkout (`make test` builds and runs it).
let package = Package(
    name: "ChoresExample",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Tidings", path: "../..")],
    targets: [
        .executableTarget(
            name: "ChoresExample",
            dependencies: [.product(name: "Chores", package: "Tidings"), .product(name: "Store", package: "Tidings")])
    ]
)
