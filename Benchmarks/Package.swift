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
        .executableTarget(
            name: "ModelsBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Models", package: "Tidings"),
            ],
            path: "Benchmarks/ModelsBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        .executableTarget(
            name: "StorageBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Models", package: "Tidings"),
                .product(name: "Storage", package: "Tidings"),
            ],
            path: "Benchmarks/StorageBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        .executableTarget(
            name: "NetworkingBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Networking", package: "Tidings"),
            ],
            path: "Benchmarks/NetworkingBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
        .executableTarget(
            name: "FeedBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Feed", package: "Tidings"),
            ],
            path: "Benchmarks/FeedBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "benchmark"),
            ]
        ),
    ]
)
