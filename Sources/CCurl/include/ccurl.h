// One HTTP exchange through libcurl, loaded with dlopen on first use.
//
// Tidings links no HTTP stack at start-up: FoundationNetworking would load libcurl and its
// forty dependencies (TLS, Kerberos, LDAP, ...) into every process, which doubles the start-up
// time of a command that fetches nothing. libcurl is opened the first time a request is made.
// Only the stable C ABI of libcurl 7.x/8.x is used (option and info numbers from curl.h), so no
// development package is needed to build.
#ifndef TIDINGS_CCURL_H
#define TIDINGS_CCURL_H

#include <stddef.h>

/// What one exchange produced. Free it with `tidings_http_result_free`.
typedef struct tidings_http_result {
    /// 0 on success; otherwise a `TIDINGS_HTTP_*` failure kind.
    int failure;
    /// The HTTP status (0 when none arrived).
    long status;
    /// The raw header block of the final response ("Name: value\r\n" lines), NUL-terminated.
    char *headers;
    size_t headers_length;
    /// The body, as sent (decompressed when the server used gzip, deflate or br).
    char *body;
    size_t body_length;
    /// A human message for a failure, NUL-terminated.
    char message[256];
} tidings_http_result;

enum {
    TIDINGS_HTTP_OK = 0,
    TIDINGS_HTTP_UNAVAILABLE = 1,  // libcurl could not be loaded
    TIDINGS_HTTP_TIMED_OUT = 2,
    TIDINGS_HTTP_CANCELLED = 3,
    TIDINGS_HTTP_TOO_LARGE = 4,
    TIDINGS_HTTP_TRANSPORT = 5,  // connection refused, DNS, TLS, ...
    TIDINGS_HTTP_STOPPED = 6,    // a sink's head or write asked to stop (`tidings_http_stream`)
};

/// What the exchanges of one transport share: libcurl handles kept between exchanges, each with
/// its connection to one host (HTTP keep-alive), and a DNS and TLS session cache. Safe to use
/// from many threads at once. Creating one does not load libcurl.
typedef struct tidings_http_client tidings_http_client;

/// A new client that keeps at most `max_idle` handles (and their connections) between exchanges
/// (NULL when out of memory).
tidings_http_client *tidings_http_client_new(size_t max_idle);

/// Closes the client's idle connections and frees it; no exchange may be running on it.
void tidings_http_client_free(tidings_http_client *client);

/// A request being performed; `tidings_http_cancel` may be called from any thread.
typedef struct tidings_http_request tidings_http_request;

/// A new request handle (NULL when out of memory).
tidings_http_request *tidings_http_request_new(void);

/// Asks a running `tidings_http_perform` to stop; it returns TIDINGS_HTTP_CANCELLED.
void tidings_http_cancel(tidings_http_request *request);

/// Frees a request handle (after `tidings_http_perform` has returned).
void tidings_http_request_free(tidings_http_request *request);

/// Performs one exchange, blocking the calling thread. Only http and https URLs are fetched
/// (any other scheme fails with TIDINGS_HTTP_TRANSPORT). Redirects are not followed (the 3xx
/// comes back). `headers` are `count` "Name: value" lines. `host` names the URL's origin
/// ("scheme://host:port"): a handle the client kept from an exchange with the same origin is
/// used, so its open connection is reused; exchanges running at once each have their own.
/// `direct` non-zero: no proxy, whatever the environment says (`http_proxy`, `https_proxy`,
/// `ALL_PROXY`); zero: libcurl's own rules (those variables and `no_proxy`).
void tidings_http_perform(
    tidings_http_client *client, tidings_http_request *request, const char *host, const char *method, const char *url,
    const char *const *headers, size_t count, const void *body, size_t body_length, long timeout_ms, size_t max_body,
    const char *user_agent, int direct, tidings_http_result *result);

/// Takes a streamed body as it arrives, instead of the result holding it (a download larger than
/// memory). Both functions are called on the thread running `tidings_http_stream`, one at a time.
typedef struct tidings_http_sink {
    void *context;
    /// Called once with the final response's status and raw header block (NUL-terminated),
    /// before the first byte of its body, or when the exchange ends if the body is empty. Returns
    /// 1 to have the body passed to `write`, 0 to have it kept in the result as
    /// `tidings_http_perform` keeps it (capped at `max_body`: a redirect, an error page), and -1
    /// to stop the exchange (TIDINGS_HTTP_STOPPED).
    int (*head)(void *context, long status, const char *headers, size_t length);
    /// Called with each piece of the body, in order; returns 0 to go on, non-zero to stop the
    /// exchange (TIDINGS_HTTP_STOPPED).
    int (*write)(void *context, const char *bytes, size_t count);
} tidings_http_sink;

/// Performs one GET as `tidings_http_perform` does, handing the body to `sink`. The body is not
/// decompressed (no Accept-Encoding is sent: byte ranges count the bytes as stored).
/// `stall_timeout_ms` bounds the connection and any stretch of that long in which no byte
/// arrives; the transfer as a whole may take as long as it keeps moving. Cancelling stops it
/// within about a second, whatever the server does.
void tidings_http_stream(
    tidings_http_client *client, tidings_http_request *request, const char *host, const char *url,
    const char *const *headers, size_t count, long stall_timeout_ms, size_t max_body, const char *user_agent,
    int direct, const tidings_http_sink *sink, tidings_http_result *result);

/// How many exchanges are inside `tidings_http_perform` now, on any thread. A process must not
/// exit while one is: the exit-time cleanup of OpenSSL would run under its feet.
int tidings_http_active(void);

/// Frees what a result holds (not the result itself).
void tidings_http_result_free(tidings_http_result *result);

#endif
