/// Runs `operation` on every input with at most `maxConcurrent` in flight and returns every
/// result in input order, whatever order they finished in: what a `DispatchGroup` of requests
/// did, with a task group. One input's failure is its own result (return a `Result`); it stops
/// nothing else.
public func fetchAll<Input: Sendable, Output: Sendable>(
    _ inputs: [Input], maxConcurrent: Int, _ operation: @escaping @Sendable (Input) async -> Output
) async -> [Output] {
    var results = [Output?](repeating: nil, count: inputs.count)
    await withTaskGroup(of: (Int, Output).self) { group in
        var next = 0
        func startNext() {
            guard next < inputs.count else { return }
            let index = next
            let input = inputs[index]
            group.addTask { (index, await operation(input)) }
            next += 1
        }
        for _ in 0..<max(1, maxConcurrent) { startNext() }
        while let (index, output) = await group.next() {
            results[index] = output
            startNext()
        }
    }
    return results.compactMap { $0 }
}
