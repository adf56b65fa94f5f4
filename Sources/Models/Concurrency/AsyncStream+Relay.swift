extension AsyncStream where Element: Sendable {
    /// A stream of `transform` applied to each element of this one, `nil`s skipped. It ends when
    /// this one ends, and stops relaying when its consumer leaves. The relay reads this stream,
    /// which exists already, so nothing sent after the call is missed.
    package func compactMapped<Mapped: Sendable>(_ transform: @escaping @Sendable (Element) -> Mapped?)
        -> AsyncStream<Mapped>
    {
        AsyncStream<Mapped> { continuation in
            let relay = Task {
                for await element in self {
                    if let mapped = transform(element) { continuation.yield(mapped) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }
}
