/// Places an installation in one of 100 buckets per feature, the same on every run and every
/// machine: FNV-1a (64-bit) over `feature:installationID`, mixed by MurmurHash3's 64-bit
/// finaliser so the low digits are as random as the high ones, modulo 100. Swift's `Hasher` is
/// seeded per process and must never be used for this.
///
/// Changing this function moves users in and out of running rollouts; do not change it casually.
enum RolloutBucket {
    /// A number in 0..<100; the feature is on when it is below the rollout percentage.
    static func bucket(feature: String, installationID: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(feature):\(installationID)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash = hash &* 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return Int(hash % 100)
    }
}
