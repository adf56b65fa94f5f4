import Foundation
import Networking
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session's delegate: it hands each task's events to that task's `SessionExchange`, refuses
/// every redirect (the 3xx becomes the response) and cancels the task as soon as the body passes
/// the cap. Events arrive on the session's serial delegate queue; the table of exchanges is
/// behind a mutex because `send` registers from other threads.
///
/// On Linux, FoundationNetworking queues each piece of the body for the delegate without
/// back-pressure and cancels through the queue that is reading, so the transfer stops some tens
/// of milliseconds after the cap is passed rather than at once: the caller has its error at
/// once and nothing past the cap is kept, but what arrived meanwhile waits in the delegate's
/// queue (at loopback speed, tens to hundreds of MB). `CurlTransport` stops within the piece
/// that passed the cap.
final class SessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private let exchanges = Mutex<[Int: SessionExchange]>([:])

    /// Routes `task`'s events to `exchange` until the task completes.
    func register(_ exchange: SessionExchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    private func exchange(for task: URLSessionTask) -> SessionExchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let accepted = exchange(for: dataTask)?.receive(response) ?? false
        completionHandler(accepted ? .allow : .cancel)
        // FoundationNetworking (Linux) ignores the disposition.
        if !accepted { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if exchange(for: dataTask)?.receive(data) != true {
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        exchange?.complete(response: task.response, error: error)
    }
}
