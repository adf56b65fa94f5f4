import Benchmark
import Foundation
import Networking

// The transport's overhead: 1,000 small GETs (a 65-byte file) against nginx on loopback,
// one at a time and 16 at a time. The server is ../shared/bench/serve.sh (`make bench`
// starts it); TIDINGS_BENCH_URL points elsewhere. One iteration is the whole 1,000, so
// requests/s = 1,000 / the wall-clock time.

private let target = URL(
    string: ProcessInfo.processInfo.environment["TIDINGS_BENCH_URL"] ?? "http://127.0.0.1:18080/.stamp")!

private func client() -> APIClient {
    APIClient(baseURL: target, transport: CurlTransport(), retry: .never)
}

/// Fails the benchmark run with a clear reason when the server is not there.
private func checkServer() async throws {
    let response = try await client().send(HTTPRequest(url: target))
    guard response.isSuccess else {
        throw NetworkError.transport("\(target) answered \(response.status); start ../shared/bench/serve.sh")
    }
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident], warmupIterations: 1, scalingFactor: .one,
        maxDuration: .seconds(20), maxIterations: 10)

    Benchmark(
        "Networking: 1,000 small GETs on loopback, concurrency 1", configuration: configuration,
        closure: { benchmark in
            let api = client()
            for _ in benchmark.scaledIterations {
                for _ in 0..<1_000 { blackHole(try await api.send(HTTPRequest(url: target))) }
            }
        },
        setup: { try await checkServer() })

    Benchmark(
        "Networking: 1,000 small GETs on loopback, concurrency 16", configuration: configuration,
        closure: { benchmark in
            let api = client()
            for _ in benchmark.scaledIterations {
                let results = await fetchAll(Array(0..<1_000), maxConcurrent: 16) { _ in
                    (try? await api.send(HTTPRequest(url: target)))?.status ?? 0
                }
                precondition(results.allSatisfy { $0 == 200 }, "some requests failed")
                blackHole(results)
            }
        },
        setup: { try await checkServer() })
}
