// See include/ccurl.h.
#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libcurl's stable ABI (curl.h): option numbers are type base + index.
enum {
    OPT_WRITEDATA = 10001, OPT_URL = 10002, OPT_PROXY = 10004, OPT_ERRORBUFFER = 10010, OPT_USERAGENT = 10018,
    OPT_HTTPHEADER = 10023, OPT_HEADERDATA = 10029, OPT_CUSTOMREQUEST = 10036, OPT_XFERINFODATA = 10057,
    OPT_ACCEPT_ENCODING = 10102, OPT_POSTFIELDS = 10015, OPT_WRITEFUNCTION = 20011, OPT_HEADERFUNCTION = 20079,
    OPT_XFERINFOFUNCTION = 20219, OPT_POSTFIELDSIZE_LARGE = 30120, OPT_NOPROGRESS = 43, OPT_NOBODY = 44,
    OPT_FOLLOWLOCATION = 52, OPT_NOSIGNAL = 99, OPT_TIMEOUT_MS = 155, OPT_CONNECTTIMEOUT_MS = 156,
    OPT_PROTOCOLS = 181, OPT_REDIR_PROTOCOLS = 182, OPT_PROTOCOLS_STR = 10318, OPT_REDIR_PROTOCOLS_STR = 10319,
    OPT_SHARE = 10100, OPT_LOW_SPEED_LIMIT = 19, OPT_LOW_SPEED_TIME = 20,
    PROTO_HTTP = 1, PROTO_HTTPS = 2,
    INFO_RESPONSE_CODE = 0x200002,
    E_OK = 0, E_WRITE_ERROR = 23, E_OPERATION_TIMEDOUT = 28, E_ABORTED_BY_CALLBACK = 42,
    GLOBAL_ALL = 3,
    // The share interface (curl.h: CURLSHoption, curl_lock_data).
    SHOPT_SHARE = 1, SHOPT_LOCKFUNC = 3, SHOPT_UNLOCKFUNC = 4, SHOPT_USERDATA = 5, SHE_OK = 0,
    LOCK_DATA_DNS = 3, LOCK_DATA_SSL_SESSION = 4, LOCK_DATA_COUNT = 8,
};

typedef void CURL;
typedef void CURLSH;
struct curl_slist;
static struct {
    int loaded;
    char error[200];
    int (*global_init)(long);
    CURL *(*easy_init)(void);
    int (*easy_setopt)(CURL *, int, ...);
    int (*easy_perform)(CURL *);
    int (*easy_getinfo)(CURL *, int, ...);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    const char *(*easy_strerror)(int);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLSH *(*share_init)(void);
    int (*share_setopt)(CURLSH *, int, ...);
    int (*share_cleanup)(CURLSH *);
} curl;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    const char *names[] = {"libcurl.so.4", "libcurl.so", "libcurl-gnutls.so.4", "libcurl.4.dylib", NULL};
    void *library = NULL;
    for (int i = 0; names[i] && !library; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(curl.error, sizeof curl.error, "libcurl is not installed (apt-get install libcurl4)");
        return;
    }
#define LOAD(field, symbol)                                                                              \
    if (!(*(void **)&curl.field = dlsym(library, symbol))) {                                             \
        snprintf(curl.error, sizeof curl.error, "libcurl has no %s", symbol);                            \
        return;                                                                                          \
    }
    LOAD(global_init, "curl_global_init")
    LOAD(easy_init, "curl_easy_init")
    LOAD(easy_setopt, "curl_easy_setopt")
    LOAD(easy_perform, "curl_easy_perform")
    LOAD(easy_getinfo, "curl_easy_getinfo")
    LOAD(easy_cleanup, "curl_easy_cleanup")
    LOAD(easy_reset, "curl_easy_reset")
    LOAD(easy_strerror, "curl_easy_strerror")
    LOAD(slist_append, "curl_slist_append")
    LOAD(slist_free_all, "curl_slist_free_all")
    LOAD(share_init, "curl_share_init")
    LOAD(share_setopt, "curl_share_setopt")
    LOAD(share_cleanup, "curl_share_cleanup")
#undef LOAD
    if (curl.global_init(GLOBAL_ALL) != E_OK) {
        snprintf(curl.error, sizeof curl.error, "libcurl failed to initialise");
        return;
    }
    curl.loaded = 1;
}

// The client: idle easy handles by origin, oldest first, and a share object for the DNS cache
// and TLS sessions. Connections are reused by reusing the handle that holds them (each easy
// handle keeps its own connection cache across curl_easy_perform calls), never through a shared
// connection cache: libcurl documents sharing one (CURL_LOCK_DATA_CONNECT) between threads as
// unsafe (KNOWN_BUGS, "A shared connection cache is not thread-safe"), and every exchange here
// runs on its own thread. A handle is used by one exchange at a time.
typedef struct {
    char *host;
    CURL *handle;
} idle_handle;

struct tidings_http_client {
    pthread_mutex_t lock;  // guards idle, idle_count and share
    idle_handle *idle;
    size_t idle_count, max_idle;
    CURLSH *share;  // made on the first exchange (libcurl is not loaded before)
    int share_failed;
    pthread_mutex_t share_locks[LOCK_DATA_COUNT];
};

tidings_http_client *tidings_http_client_new(size_t max_idle) {
    tidings_http_client *client = calloc(1, sizeof *client);
    if (!client) return NULL;
    client->idle = calloc(max_idle ? max_idle : 1, sizeof *client->idle);
    if (!client->idle) {
        free(client);
        return NULL;
    }
    client->max_idle = max_idle;
    pthread_mutex_init(&client->lock, NULL);
    for (int i = 0; i < LOCK_DATA_COUNT; i++) pthread_mutex_init(&client->share_locks[i], NULL);
    return client;
}

void tidings_http_client_free(tidings_http_client *client) {
    if (!client) return;
    // Handles first: a share cannot be cleaned up while a handle uses it.
    for (size_t i = 0; i < client->idle_count; i++) {
        curl.easy_cleanup(client->idle[i].handle);
        free(client->idle[i].host);
    }
    if (client->share) curl.share_cleanup(client->share);
    for (int i = 0; i < LOCK_DATA_COUNT; i++) pthread_mutex_destroy(&client->share_locks[i]);
    pthread_mutex_destroy(&client->lock);
    free(client->idle);
    free(client);
}

// The share's lock callbacks: one mutex per kind of data (libcurl asks for a different lock for
// each kind, and locks SHARE itself while attaching and detaching handles).
static void share_lock(CURL *handle, int data, int access, void *context) {
    (void)handle, (void)access;
    tidings_http_client *client = context;
    if (data >= 0 && data < LOCK_DATA_COUNT) pthread_mutex_lock(&client->share_locks[data]);
}

static void share_unlock(CURL *handle, int data, void *context) {
    (void)handle;
    tidings_http_client *client = context;
    if (data >= 0 && data < LOCK_DATA_COUNT) pthread_mutex_unlock(&client->share_locks[data]);
}

// The share object, made once libcurl is loaded (NULL when libcurl refuses it: exchanges then
// go without a shared DNS cache and TLS sessions, which costs time, not correctness).
// Called with client->lock held.
static CURLSH *client_share(tidings_http_client *client) {
    if (client->share || client->share_failed) return client->share;
    CURLSH *share = curl.share_init();
    if (share && curl.share_setopt(share, SHOPT_USERDATA, client) == SHE_OK &&
        curl.share_setopt(share, SHOPT_LOCKFUNC, share_lock) == SHE_OK &&
        curl.share_setopt(share, SHOPT_UNLOCKFUNC, share_unlock) == SHE_OK &&
        curl.share_setopt(share, SHOPT_SHARE, (long)LOCK_DATA_DNS) == SHE_OK &&
        curl.share_setopt(share, SHOPT_SHARE, (long)LOCK_DATA_SSL_SESSION) == SHE_OK) {
        client->share = share;
    } else {
        if (share) curl.share_cleanup(share);
        client->share_failed = 1;
    }
    return client->share;
}

// A handle for an exchange with `host`: the one that last finished an exchange with it (its
// connection is the most likely still open), else a new one.
static CURL *take_handle(tidings_http_client *client, const char *host) {
    CURL *handle = NULL;
    pthread_mutex_lock(&client->lock);
    for (size_t i = client->idle_count; i-- > 0;) {
        if (strcmp(client->idle[i].host, host) == 0) {
            handle = client->idle[i].handle;
            free(client->idle[i].host);
            memmove(&client->idle[i], &client->idle[i + 1], (client->idle_count - i - 1) * sizeof *client->idle);
            client->idle_count--;
            break;
        }
    }
    CURLSH *share = handle ? NULL : client_share(client);
    pthread_mutex_unlock(&client->lock);
    if (!handle) {
        handle = curl.easy_init();
        // Set once: curl_easy_reset keeps a handle's share (and its connections).
        if (handle && share) curl.easy_setopt(handle, OPT_SHARE, share);
    }
    return handle;
}

// Hands a handle back after a successful exchange with `host`: its options are reset (nothing
// of this exchange, such as pointers to its buffers, stays set) and its connections kept. When
// the client already keeps `max_idle` handles, the oldest goes (closing its connection).
static void give_back(tidings_http_client *client, const char *host, CURL *handle) {
    curl.easy_reset(handle);
    char *copy = strdup(host);
    CURL *closing = handle;
    char *closing_host = copy;
    pthread_mutex_lock(&client->lock);
    if (copy && client->max_idle > 0) {
        if (client->idle_count == client->max_idle) {
            closing = client->idle[0].handle;
            closing_host = client->idle[0].host;
            memmove(&client->idle[0], &client->idle[1], (client->idle_count - 1) * sizeof *client->idle);
            client->idle_count--;
        } else {
            closing = NULL;
            closing_host = NULL;
        }
        client->idle[client->idle_count++] = (idle_handle){.host = copy, .handle = handle};
    }
    pthread_mutex_unlock(&client->lock);
    if (closing) curl.easy_cleanup(closing);
    free(closing_host);
}

struct tidings_http_request {
    atomic_int cancelled;
};

tidings_http_request *tidings_http_request_new(void) {
    tidings_http_request *request = calloc(1, sizeof *request);
    if (request) atomic_init(&request->cancelled, 0);
    return request;
}

void tidings_http_cancel(tidings_http_request *request) { atomic_store(&request->cancelled, 1); }

void tidings_http_request_free(tidings_http_request *request) { free(request); }

typedef struct {
    char *data;
    size_t length, capacity, limit;
    int too_large;
} buffer;

static int append(buffer *b, const char *bytes, size_t count) {
    if (b->length + count > b->limit) {
        b->too_large = 1;
        return 0;
    }
    if (b->length + count + 1 > b->capacity) {
        size_t capacity = b->capacity ? b->capacity : 16384;
        while (capacity < b->length + count + 1) capacity *= 2;
        char *grown = realloc(b->data, capacity);
        if (!grown) return 0;
        b->data = grown;
        b->capacity = capacity;
    }
    memcpy(b->data + b->length, bytes, count);
    b->length += count;
    b->data[b->length] = 0;
    return 1;
}

static size_t on_body(char *bytes, size_t size, size_t count, void *context) {
    return append(context, bytes, size * count) ? size * count : 0;
}

static size_t on_header(char *bytes, size_t size, size_t count, void *context) {
    buffer *b = context;
    // A new status line (an interim 100 Continue, for one) starts the block again.
    if (size * count >= 5 && memcmp(bytes, "HTTP/", 5) == 0) b->length = 0;
    return append(b, bytes, size * count) ? size * count : 0;
}

// A streamed exchange's state, for its body callback (see tidings_http_sink).
typedef struct {
    const tidings_http_sink *sink;
    CURL *handle;
    buffer *body;     // the body kept when the sink does not take it
    buffer *headers;  // the final response's header block so far
    int decided, streaming, stopped;
} stream_state;

// Asks the sink what to do with the body, once the head has arrived; 0 when it says stop.
static int decide(stream_state *state) {
    long status = 0;
    curl.easy_getinfo(state->handle, INFO_RESPONSE_CODE, &status);
    const char *headers = state->headers->data ? state->headers->data : "";
    int answer = state->sink->head(state->sink->context, status, headers, state->headers->length);
    state->decided = 1;
    if (answer < 0) {
        state->stopped = 1;
        return 0;
    }
    state->streaming = answer > 0;
    return 1;
}

static size_t on_stream_body(char *bytes, size_t size, size_t count, void *context) {
    stream_state *state = context;
    size_t total = size * count;
    if (!state->decided && !decide(state)) return 0;
    if (!state->streaming) return append(state->body, bytes, total) ? total : 0;
    if (state->sink->write(state->sink->context, bytes, total) != 0) {
        state->stopped = 1;
        return 0;
    }
    return total;
}

static int on_progress(void *context, long long dltotal, long long dlnow, long long ultotal, long long ulnow) {
    (void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
    return atomic_load(&((tidings_http_request *)context)->cancelled) ? 1 : 0;
}

/// Exchanges inside `tidings_http_perform` now, on any thread.
static atomic_int active_exchanges;

int tidings_http_active(void) { return atomic_load(&active_exchanges); }

static void perform(
    tidings_http_client *client, tidings_http_request *request, const char *host, const char *method, const char *url,
    const char *const *headers, size_t count, const void *body, size_t body_length, long timeout_ms, size_t max_body,
    const char *user_agent, int direct, const tidings_http_sink *sink, tidings_http_result *result);

void tidings_http_perform(
    tidings_http_client *client, tidings_http_request *request, const char *host, const char *method, const char *url,
    const char *const *headers, size_t count, const void *body, size_t body_length, long timeout_ms, size_t max_body,
    const char *user_agent, int direct, tidings_http_result *result) {
    atomic_fetch_add(&active_exchanges, 1);
    perform(client, request, host, method, url, headers, count, body, body_length, timeout_ms, max_body, user_agent,
            direct, NULL, result);
    atomic_fetch_sub(&active_exchanges, 1);
}

void tidings_http_stream(
    tidings_http_client *client, tidings_http_request *request, const char *host, const char *url,
    const char *const *headers, size_t count, long stall_timeout_ms, size_t max_body, const char *user_agent,
    int direct, const tidings_http_sink *sink, tidings_http_result *result) {
    atomic_fetch_add(&active_exchanges, 1);
    perform(client, request, host, "GET", url, headers, count, NULL, 0, stall_timeout_ms, max_body, user_agent, direct,
            sink, result);
    atomic_fetch_sub(&active_exchanges, 1);
}

static void perform(
    tidings_http_client *client, tidings_http_request *request, const char *host, const char *method, const char *url,
    const char *const *headers, size_t count, const void *body, size_t body_length, long timeout_ms, size_t max_body,
    const char *user_agent, int direct, const tidings_http_sink *sink, tidings_http_result *result) {
    memset(result, 0, sizeof *result);
    pthread_once(&load_once, load);
    if (!curl.loaded) {
        result->failure = TIDINGS_HTTP_UNAVAILABLE;
        snprintf(result->message, sizeof result->message, "%s", curl.error);
        return;
    }
    CURL *handle = take_handle(client, host);
    if (!handle) {
        result->failure = TIDINGS_HTTP_TRANSPORT;
        snprintf(result->message, sizeof result->message, "libcurl could not make a handle");
        return;
    }
    buffer response_body = {.limit = max_body};
    buffer response_headers = {.limit = 1 << 20};
    struct curl_slist *list = NULL;
    for (size_t i = 0; i < count; i++) list = curl.slist_append(list, headers[i]);
    char error[256] = "";
    // Only http and https, whatever the URL or a redirect says: no gopher:, dict:, ftp: or file:
    // request can ever be made (request forgery against local services, local file reads).
    // libcurl 7.85 has the string options; older ones the bit masks (deprecated since).
    if (curl.easy_setopt(handle, OPT_PROTOCOLS_STR, "http,https") != E_OK ||
        curl.easy_setopt(handle, OPT_REDIR_PROTOCOLS_STR, "http,https") != E_OK) {
        curl.easy_setopt(handle, OPT_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
        curl.easy_setopt(handle, OPT_REDIR_PROTOCOLS, (long)(PROTO_HTTP | PROTO_HTTPS));
    }
    curl.easy_setopt(handle, OPT_URL, url);
    // Set on every exchange, as handles are reused: "" is no proxy at all, NULL libcurl's
    // default (the proxy variables of the environment, and no_proxy).
    curl.easy_setopt(handle, OPT_PROXY, direct ? "" : (const char *)NULL);
    curl.easy_setopt(handle, OPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, OPT_FOLLOWLOCATION, 0L);
    curl.easy_setopt(handle, OPT_USERAGENT, user_agent);
    curl.easy_setopt(handle, OPT_HTTPHEADER, list);
    curl.easy_setopt(handle, OPT_ERRORBUFFER, error);
    curl.easy_setopt(handle, OPT_CONNECTTIMEOUT_MS, timeout_ms);
    stream_state state = {.sink = sink, .handle = handle, .body = &response_body, .headers = &response_headers};
    if (sink) {
        // No limit on the whole transfer, only on silences: a large file on a slow line takes
        // as long as it keeps moving. Bodies stay as stored (ranges count those bytes).
        curl.easy_setopt(handle, OPT_LOW_SPEED_LIMIT, 1L);
        curl.easy_setopt(handle, OPT_LOW_SPEED_TIME, timeout_ms < 1000 ? 1L : timeout_ms / 1000);
        curl.easy_setopt(handle, OPT_WRITEFUNCTION, on_stream_body);
        curl.easy_setopt(handle, OPT_WRITEDATA, &state);
    } else {
        curl.easy_setopt(handle, OPT_ACCEPT_ENCODING, "");
        curl.easy_setopt(handle, OPT_TIMEOUT_MS, timeout_ms);
        curl.easy_setopt(handle, OPT_WRITEFUNCTION, on_body);
        curl.easy_setopt(handle, OPT_WRITEDATA, &response_body);
    }
    curl.easy_setopt(handle, OPT_HEADERFUNCTION, on_header);
    curl.easy_setopt(handle, OPT_HEADERDATA, &response_headers);
    curl.easy_setopt(handle, OPT_NOPROGRESS, 0L);
    curl.easy_setopt(handle, OPT_XFERINFOFUNCTION, on_progress);
    curl.easy_setopt(handle, OPT_XFERINFODATA, request);
    if (strcmp(method, "HEAD") == 0) {
        curl.easy_setopt(handle, OPT_NOBODY, 1L);
    } else if (strcmp(method, "GET") != 0) {
        curl.easy_setopt(handle, OPT_CUSTOMREQUEST, method);
    }
    if (body) {
        curl.easy_setopt(handle, OPT_POSTFIELDSIZE_LARGE, (long long)body_length);
        curl.easy_setopt(handle, OPT_POSTFIELDS, body);
    }
    int code = curl.easy_perform(handle);
    curl.easy_getinfo(handle, INFO_RESPONSE_CODE, &result->status);
    // An empty body never reached the body callback: the sink hears of the head now.
    if (sink && code == E_OK && !state.decided) decide(&state);
    if (state.stopped) {
        result->failure = TIDINGS_HTTP_STOPPED;
    } else if (response_body.too_large) {
        result->failure = TIDINGS_HTTP_TOO_LARGE;
    } else if (code == E_ABORTED_BY_CALLBACK || atomic_load(&request->cancelled)) {
        result->failure = TIDINGS_HTTP_CANCELLED;
    } else if (code == E_OPERATION_TIMEDOUT) {
        result->failure = TIDINGS_HTTP_TIMED_OUT;
    } else if (code != E_OK) {
        result->failure = TIDINGS_HTTP_TRANSPORT;
        snprintf(result->message, sizeof result->message, "%s", error[0] ? error : curl.easy_strerror(code));
    }
    if (result->failure == TIDINGS_HTTP_OK) {
        result->body = response_body.data;
        result->body_length = response_body.length;
        result->headers = response_headers.data;
        result->headers_length = response_headers.length;
    } else {
        free(response_body.data);
        free(response_headers.data);
    }
    // A handle whose exchange failed (timed out, cancelled, cut off at the cap: libcurl has
    // closed its connection) is not kept.
    if (result->failure == TIDINGS_HTTP_OK) {
        give_back(client, host, handle);
    } else {
        curl.easy_cleanup(handle);
    }
    curl.slist_free_all(list);
}

void tidings_http_result_free(tidings_http_result *result) {
    free(result->body);
    free(result->headers);
    result->body = result->headers = NULL;
}
