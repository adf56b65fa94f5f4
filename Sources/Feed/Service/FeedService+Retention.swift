public import Models
internal import Storage
internal import Store

extension FeedService {
    /// Feed `id`'s own retention, and the default it falls back to.
    public func retention(feedID id: Int64) async throws(FeedError) -> (
        own: RetentionPolicy?, fallback: RetentionPolicy
    ) {
        _ = try await subscription(id: id)
        let own = try await storage { () async throws(StorageError) in try await feeds.retentionPolicies() }[id]
        return (own, await retention())
    }

    /// Sets feed `id`'s own retention (`nil` fields take the default).
    public func setRetention(_ policy: RetentionPolicy, feedID id: Int64) async throws(FeedError) {
        try await storage { () async throws(StorageError) in try await feeds.setRetention(policy, feedID: id) }
    }

    /// Deletes what retention lets go (see `ArticleRepository.purge`): nothing, and no query but
    /// one, when neither the default nor any feed has a policy.
    public func purge() async throws(FeedError) -> PurgeSummary {
        let fallback = await retention()
        let policies = try await storage { () async throws(StorageError) in try await feeds.retentionPolicies() }
        let active = { (policy: RetentionPolicy) in (policy.items ?? 0) > 0 || (policy.days ?? 0) > 0 }
        guard active(fallback) || policies.values.contains(where: active) else { return PurgeSummary() }
        let now = self.now()
        return try await storage { () async throws(StorageError) in
            try await articles.purge(default: fallback, feeds: policies, now: now)
        }
    }
}
