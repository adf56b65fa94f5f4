/// What a list view model shows: nothing yet, a load in progress, the data, or a failure that
/// keeps the last good data on screen.
public enum ViewState<Content: Sendable & Hashable>: Sendable, Hashable {
    /// Nothing has been loaded.
    case idle
    /// A load is running; `previous` is what was shown before it, if anything.
    case loading(previous: Content?)
    /// The data, stored and ready.
    case loaded(Content)
    /// The last load failed with `message`; `stale` is the last good content, if any.
    case failed(message: String, stale: Content?)

    /// The content to show: the loaded one, else the one kept through a load or a failure.
    public var content: Content? {
        switch self {
        case .idle: nil
        case .loading(let previous): previous
        case .loaded(let content): content
        case .failed(_, let stale): stale
        }
    }

    /// Whether a load is running.
    public var isLoading: Bool {
        if case .loading = self { true } else { false }
    }
}
