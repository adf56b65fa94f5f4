#if os(Linux)
    import CCurl
    import Foundation

    extension CurlTransport: HTTPStreaming {
        /// Sends `request` as a GET and streams its body to `receiver` (see `HTTPStreaming`). It
        /// waits, as `send` does, while `maxConnectionsPerHost` exchanges with the host run.
        ///
        /// - Throws: `.unsupportedScheme` for a URL that is not http or https; `.timedOut` when
        ///   nothing arrives for the timeout; `.cancelled`; `.transport`; what `receiver` throws.
        public func stream(_ request: HTTPRequest, to receiver: BodyReceiver) async throws(NetworkError)
            -> HTTPResponse
        {
            if let scheme = NetworkError.unfetchableScheme(request.url) {
                throw .unsupportedScheme(scheme, request.url)
            }
            if let name = NetworkError.unsendableHeader(request) { throw .invalidHeader(name) }
            if Task.isCancelled { throw .cancelled }
            let origin = HostLimiter.origin(of: request.url)
            return try await hosts.withSlot(for: origin) { () async throws(NetworkError) -> HTTPResponse in
                guard let clientPointer = client.pointer, let handle = tidings_http_request_new() else {
                    throw .transport("out of memory")
                }
                defer { tidings_http_request_free(handle) }
                let exchange = Exchange(handle: handle, client: client, clientPointer: clientPointer, origin: origin)
                let timeout = request.timeout ?? configuration.timeout
                let configuration = self.configuration
                let result = await withTaskCancellationHandler {
                    await withCheckedContinuation {
                        (continuation: CheckedContinuation<Result<HTTPResponse, NetworkError>, Never>) in
                        Thread.detachNewThread {
                            continuation.resume(
                                returning: exchange.stream(request, to: receiver, timeout: timeout, configuration))
                        }
                    }
                } onCancel: {
                    exchange.cancel()
                }
                return try result.get()
            }
        }
    }

    /// A streamed exchange's receiver as the C callbacks reach it, with the error that stopped it.
    /// `@unchecked Sendable`: libcurl calls `head` and `write` on the worker thread running
    /// `tidings_http_stream`, one at a time, and `stopped` is read on that thread once it has
    /// returned; no other thread touches it.
    private final class StreamedBody: @unchecked Sendable {
        let receiver: BodyReceiver
        let url: URL
        var stopped: NetworkError?

        init(receiver: BodyReceiver, url: URL) {
            self.receiver = receiver
            self.url = url
        }

        /// `tidings_http_sink.head`: 1 stream, 0 keep, -1 stop.
        func head(status: Int, headerBlock: String) -> Int32 {
            let response = HTTPResponse(
                status: status, headers: Exchange.headers(headerBlock), url: url)
            do throws(NetworkError) {
                return try receiver.head(response) ? 1 : 0
            } catch {
                stopped = error
                return -1
            }
        }

        /// `tidings_http_sink.write`: 0 go on, 1 stop.
        func write(_ bytes: UnsafeRawBufferPointer) -> Int32 {
            do throws(NetworkError) {
                try receiver.write(bytes)
                return 0
            } catch {
                stopped = error
                return 1
            }
        }
    }

    extension Exchange {
        /// Performs `request` as a streamed GET on this (worker) thread.
        func stream(
            _ request: HTTPRequest, to receiver: BodyReceiver, timeout: TimeInterval,
            _ configuration: CurlTransport.Configuration
        ) -> Result<HTTPResponse, NetworkError> {
            let body = StreamedBody(receiver: receiver, url: request.url)
            var sink = tidings_http_sink(
                context: Unmanaged.passUnretained(body).toOpaque(),
                head: { context, status, headers, length in
                    guard let context, let headers else { return -1 }
                    let block = String(
                        decoding: UnsafeRawBufferPointer(start: headers, count: length), as: UTF8.self)
                    return Unmanaged<StreamedBody>.fromOpaque(context).takeUnretainedValue()
                        .head(status: status, headerBlock: block)
                },
                write: { context, bytes, count in
                    guard let context else { return 1 }
                    return Unmanaged<StreamedBody>.fromOpaque(context).takeUnretainedValue()
                        .write(UnsafeRawBufferPointer(start: bytes, count: count))
                })
            var result = tidings_http_result()
            let cLines = request.headers.map { strdup("\($0.key): \($0.value)") }
            defer { for line in cLines { free(line) } }
            let pointers = cLines.map { UnsafePointer($0) }
            pointers.withUnsafeBufferPointer { headers in
                tidings_http_stream(
                    clientPointer, handle, origin, request.url.absoluteString, headers.baseAddress, headers.count,
                    Int(max(1, timeout * 1000)), configuration.maxBodySize, configuration.userAgent,
                    ProxyRoute.goesDirect(request) ? 1 : 0, &sink, &result)
            }
            defer { tidings_http_result_free(&result) }
            // The body is kept alive to here: the callbacks above reach it unretained.
            if Int(result.failure) == TIDINGS_HTTP_STOPPED {
                return .failure(withExtendedLifetime(body) { body.stopped ?? .transport("the download stopped") })
            }
            return withExtendedLifetime(body) { Self.outcome(of: result, url: request.url, configuration) }
        }
    }
#endif
