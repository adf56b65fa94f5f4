/// "Did you mean …" for a mistyped word, by edit distance.
enum Suggestion {
    /// The candidate closest to `word`, when it is close enough to be a plausible typo:
    /// at most one edit for short words, two for longer ones, or `word` is a prefix of it.
    static func nearest(to word: String, in candidates: [String]) -> String? {
        let lowered = word.lowercased()
        let limit = lowered.count <= 4 ? 1 : 2
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = candidate.hasPrefix(lowered) && !lowered.isEmpty ? 0 : editDistance(lowered, candidate)
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// Damerau–Levenshtein distance (optimal string alignment): insertions, deletions,
    /// substitutions and swaps of neighbours each count one.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
