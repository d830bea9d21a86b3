#ifndef STACKDAY_CHTTP_H
#define STACKDAY_CHTTP_H

// An HTTP/1.1 server on GNU libmicrohttpd (Debian: libmicrohttpd12, headers in libmicrohttpd-dev),
// opened with dlopen when a server starts, so the command line does not load it (and its TLS
// libraries) for every other command. libmicrohttpd parses HTTP; this layer collects one
// request (headers it needs, query arguments, a body up to a limit) and hands it to a handler.

#include <stddef.h>
#include <stdint.h>

/// One request, valid while the handler runs.
typedef struct sd_http_request {
    const char *method;
    /// The path as the client sent it, without the query: still percent-encoded, so the handler
    /// can split it into segments before decoding each. Query keys and values are decoded.
    const char *path;
    const char *authorization;
    const char *cookie;
    const char *content_type;
    /// The headers the browser pages need: `Origin`, `Host`, `Accept-Language`, `If-None-Match`
    /// and `X-Forwarded-Proto` (NULL when absent).
    const char *origin;
    const char *host;
    const char *accept_language;
    const char *if_none_match;
    const char *forwarded_proto;
    /// `X-Request-Id`, and the preflight's `Access-Control-Request-Method` (NULL when absent).
    const char *request_id;
    const char *preflight_method;
    /// `X-Forwarded-For`, believed only from a trusted proxy (NULL when absent).
    const char *forwarded_for;
    /// `Idempotency-Key`: a write retried with the same key is answered as the first time.
    const char *idempotency_key;
    /// The client's IPv4 address, dotted (empty when unknown).
    const char *address;
    const char *const *query_keys;
    const char *const *query_values;
    int query_count;
    const char *body;
    size_t body_length;
    /// The body passed the limit; its bytes were dropped.
    int body_too_large;
} sd_http_request;

/// The handler's answer. `content_type`, `body`, `set_cookie` and `location` are allocated with
/// malloc (or NULL) and freed by this layer.
typedef struct sd_http_response {
    unsigned int status;
    char *content_type;
    char *body;
    size_t body_length;
    char *set_cookie;
    char *location;
    /// More headers, `Name: value` lines separated by `\n` (a `Cache-Control` among them replaces
    /// the default `no-store`).
    char *headers;
} sd_http_response;

typedef void (*sd_http_handler)(void *context, const sd_http_request *request, sd_http_response *response);

typedef struct sd_http_server sd_http_server;

typedef struct sd_http_options {
    /// IPv4 address in network byte order and port (0: any free port).
    uint32_t address;
    uint16_t port;
    /// Worker threads that run the handler (one more thread polls the connections).
    unsigned int threads;
    size_t max_body;
    /// Seconds an idle connection is kept.
    unsigned int idle_timeout;
    unsigned int connection_limit;
    /// Bytes of memory per connection, which bounds the request line and headers.
    size_t connection_memory;
    /// Connections one client address may hold at once (0: no limit).
    unsigned int per_address_limit;
    /// Seconds a connection may take to send a request's headers before it is closed.
    unsigned int header_timeout;
    /// Requests of one client (one credential, else one address) answered at once; the rest wait
    /// in the queue without holding a worker.
    unsigned int per_client_workers;
    /// Requests of one client that may wait in the queue; more are answered 503 at once.
    unsigned int per_client_queue;
    /// Seconds a worker may spend on one request before the request is answered 503 and the
    /// worker is abandoned (replaced by a new one). 0: never.
    unsigned int hard_deadline;
    /// Who a credential belongs to, for fairness: `kind` is SD_CREDENTIAL_TOKEN (a bearer token,
    /// taken from `Authorization: Bearer TOKEN` written exactly so) or SD_CREDENTIAL_SESSION (the
    /// value of the `session_cookie` cookie). Answers a nonzero key for the user it resolves to,
    /// or 0 when it resolves to no one: the request is then keyed by its address. Called on the
    /// thread that reads every connection: it answers from memory, at once. NULL: every request
    /// is keyed by its address.
    uint64_t (*resolve_client)(void *context, int kind, const char *credential);
    void *resolve_context;
    /// The name of the session cookie (NULL: none).
    const char *session_cookie;
    /// Serve HTTPS (TLS 1.2 and 1.3) with the certificate `sd_tls_server_load` loaded (CTLS.h);
    /// a reload of it is taken by the next handshake.
    int tls;
    /// Bytes a second a request's body must average once it has had `header_timeout` seconds;
    /// a slower one's connection is closed (0: no minimum).
    unsigned int min_body_rate;
} sd_http_options;

enum { SD_CREDENTIAL_TOKEN = 1, SD_CREDENTIAL_SESSION = 2 };

/// The bearer token of an `Authorization` value, when it is exactly `Bearer sd_` and 64
/// lowercase hex digits (the scheme in any case, one space, nothing after): copied into `token`
/// (68 bytes with its NUL); 0 otherwise.
int sd_http_bearer_token(const char *authorization, char token[68]);

/// Called by a handler right before it commits a write: 1 when it may (the request is then
/// answered with its result however long it takes), 0 when the hard deadline already gave the
/// request up (answered 503): the handler must then commit nothing. 1 outside a worker.
int sd_http_claim_commit(void);

/// Starts a server; NULL with `error` (a static or thread-local message) on failure.
sd_http_server *sd_http_start(const sd_http_options *options, sd_http_handler handler, void *context, const char **error);

/// The port the server listens on.
uint16_t sd_http_port(sd_http_server *server);

/// The connections open now (idle keep-alive ones included).
unsigned int sd_http_connections(sd_http_server *server);

/// Stops accepting connections; requests in flight go on.
void sd_http_quiesce(sd_http_server *server);

/// Requests being handled right now.
unsigned int sd_http_in_flight(sd_http_server *server);

/// Workers abandoned because a request passed the hard deadline, since the start.
unsigned int sd_http_abandoned(sd_http_server *server);

/// Stops the server: lets the workers finish the queue for up to `grace_ms`, closes every
/// connection and frees it. Returns 0, or -1 when a worker was still busy at the deadline: then
/// the server is left running as it is (nothing freed), for the process to exit over it.
int sd_http_stop(sd_http_server *server, unsigned int grace_ms);

/// Raises the calling thread's `nice` by `by` (a lower CPU priority, for this thread alone; Linux
/// schedules threads one by one). Returns 0, or -1 with errno set.
int sd_lower_thread_priority(int by);

#endif
