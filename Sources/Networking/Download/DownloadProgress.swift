public import Foundation

/// How far a download is, reported as bytes arrive.
public struct DownloadProgress: Sendable, Equatable {
    /// The bytes the file holds now, those of a resumed partial file included.
    public var bytes: Int64
    /// The length of the whole file, when the server announced it.
    public var total: Int64?
    /// The bytes the file held when this transfer began (0 when it began from the start).
    public var resumedFrom: Int64

    public init(bytes: Int64, total: Int64?, resumedFrom: Int64) {
        self.bytes = bytes
        self.total = total
        self.resumedFrom = resumedFrom
    }
}

/// A finished download.
public struct DownloadResult: Sendable, Equatable {
    /// The file, complete and under its name.
    public var destination: URL
    /// Its length.
    public var bytes: Int64
    /// The bytes a partial file already held when the transfer went on from it; 0 when the
    /// download began from the start (a server that ignored the range included).
    public var resumedFrom: Int64

    public init(destination: URL, bytes: Int64, resumedFrom: Int64) {
        self.destination = destination
        self.bytes = bytes
        self.resumedFrom = resumedFrom
    }
}
