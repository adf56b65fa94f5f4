// swift-tools-version: 6.1
import PackageDescription

// Benchmarks for Tidings, kept in their own package so that `swift build` / `swift test`
// (and `make test`) in the root package never build ordo-one/benchmark.
//
// Run from this directory (or `make bench` in the root):
//   swift package --allow-writing-to-package-directory benchmark
let package = Package(
    name: "TidingsBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Listing traits replaces the package's default set, so only the malloc interposer
        // (mallocCountTotal and the other malloc metrics) is enabled.
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "Tidings", path: ".."),
    ],
    targets: [
        benchmarkTarget("ModelsBenchmarks", using: ["Models"]),
        benchmarkTarget("StorageBenchmarks", using: ["Models", "Storage"]),
        benchmarkTarget("NetworkingBenchmarks", using: ["Networking"]),
        benchmarkTarget("FeedBenchmarks", using: ["FeedParser"]),
        benchmarkTarget("TaskBenchmarks", using: ["Models", "Store", "Chores"]),
        // process-bench.sh's in-process parse timer, run beside fastfeedparser in-process.
        .executableTarget(
            name: "ParseTimer", dependencies: [.product(name: "FeedParser", package: "Tidings")],
            path: "Tools/ParseTimer"),
    ]
)

/// A benchmark executable under `Benchmarks/<name>` using Tidings' `products`.
func benchmarkTarget(_ name: String, using products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "Benchmark", package: "benchmark")]
            + products.map { .product(name: $0, package: "Tidings") },
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}
