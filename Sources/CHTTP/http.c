#include "CHTTP.h"
#include "CTLS.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <microhttpd.h>
#include <malloc.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

// libmicrohttpd's functions, loaded once.
static struct {
    const char *error;
    __typeof__(MHD_start_daemon) *start_daemon;
    __typeof__(MHD_stop_daemon) *stop_daemon;
    __typeof__(MHD_quiesce_daemon) *quiesce_daemon;
    __typeof__(MHD_get_daemon_info) *get_daemon_info;
    __typeof__(MHD_lookup_connection_value) *lookup_connection_value;
    __typeof__(MHD_get_connection_values) *get_connection_values;
    __typeof__(MHD_get_connection_values_n) *get_connection_values_n;
    __typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
    __typeof__(MHD_add_response_header) *add_response_header;
    __typeof__(MHD_queue_response) *queue_response;
    __typeof__(MHD_destroy_response) *destroy_response;
    __typeof__(MHD_suspend_connection) *suspend_connection;
    __typeof__(MHD_resume_connection) *resume_connection;
    __typeof__(MHD_get_connection_info) *get_connection_info;
    __typeof__(MHD_set_connection_option) *set_connection_option;
} mhd;
static pthread_once_t mhd_once = PTHREAD_ONCE_INIT;
static char mhd_error[512];

static void mhd_load(void) {
    void *handle = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(mhd_error, sizeof mhd_error, "cannot load libmicrohttpd (apt-get install libmicrohttpd12): %s", reason ? reason : "unknown error");
        mhd.error = mhd_error;
        return;
    }
#define SD_LOAD(field, name) \
    if (!(mhd.field = (__typeof__(mhd.field))dlsym(handle, #name))) { mhd.error = "libmicrohttpd.so.12 lacks " #name; return; }
    SD_LOAD(start_daemon, MHD_start_daemon)
    SD_LOAD(stop_daemon, MHD_stop_daemon)
    SD_LOAD(quiesce_daemon, MHD_quiesce_daemon)
    SD_LOAD(get_daemon_info, MHD_get_daemon_info)
    SD_LOAD(lookup_connection_value, MHD_lookup_connection_value)
    SD_LOAD(get_connection_values, MHD_get_connection_values)
    SD_LOAD(get_connection_values_n, MHD_get_connection_values_n)
    SD_LOAD(create_response_from_buffer, MHD_create_response_from_buffer)
    SD_LOAD(add_response_header, MHD_add_response_header)
    SD_LOAD(queue_response, MHD_queue_response)
    SD_LOAD(destroy_response, MHD_destroy_response)
    SD_LOAD(suspend_connection, MHD_suspend_connection)
    SD_LOAD(resume_connection, MHD_resume_connection)
    SD_LOAD(get_connection_info, MHD_get_connection_info)
    SD_LOAD(set_connection_option, MHD_set_connection_option)
#undef SD_LOAD
}

#define SD_MAX_QUERY 32
/* Requests waiting in the queue, all clients together; more are answered 503 at once. */
#define SD_MAX_QUEUED 4096
/* Abandoned workers still running, at most this many times the workers; past it none is replaced. */
#define SD_ABANDONED_FACTOR 4
/* Connections accepted past the limit, each making the one waiting longest for its head leave. */
#define SD_SHED_HEADROOM 64

// One request's state across libmicrohttpd's calls: the body so far, then (once it is complete)
// the request as the handler sees it, queued for a worker, and the worker's answer.
typedef struct sd_request_state {
    char *body;
    size_t length;
    size_t capacity;
    int too_large;
    int counted;
    int queued;
    int answered;
    /// A worker is reading the request: libmicrohttpd finishing it leaves the freeing to the worker.
    int with_worker;
    /// libmicrohttpd finished the request while a worker still had it.
    int orphaned;
    /// Under the server's lock: FATE_RUNNING, FATE_COMMITTING once its handler began to commit a
    /// write (it is then answered with its result, never given up), FATE_GIVEN_UP once the
    /// watchdog answered it (its handler may then commit nothing).
    int fate;
    uint64_t client;
    struct MHD_Connection *connection;
    char *method, *path, *authorization, *cookie, *content_type;
    char *origin, *host, *accept_language, *if_none_match, *forwarded_proto, *request_id, *preflight_method, *forwarded_for;
    char *idempotency_key;
    char address[INET_ADDRSTRLEN];
    char *query_keys[SD_MAX_QUERY];
    char *query_values[SD_MAX_QUERY];
    int query_count;
    sd_http_response response;
    struct sd_request_state *next;
} sd_request_state;

typedef struct sd_worker {
    pthread_t thread;
    struct sd_http_server *server;
    sd_request_state *current;
    uint64_t client;
    long long started_ms;
    /// The watchdog answered this worker's request and replaced it; it exits when the handler returns.
    int abandoned;
    int exited;
    struct sd_worker *next;
} sd_worker;

struct sd_http_server {
    struct MHD_Daemon *daemon;
    sd_http_handler handler;
    void *context;
    size_t max_body;
    uint16_t port;
    int listen_socket;
    unsigned int idle_timeout, header_timeout;
    unsigned int per_client_workers, per_client_queue, hard_deadline;
    uint64_t (*resolve_client)(void *context, int kind, const char *credential);
    void *resolve_context;
    char *session_cookie;
    atomic_uint in_flight;
    atomic_uint abandoned_total;
    // Complete requests in arrival order, taken by the workers: the oldest request whose client
    // has fewer than `per_client_workers` requests being answered goes first, so one client's
    // burst waits in the queue instead of holding every worker.
    pthread_mutex_t lock;
    pthread_cond_t ready;
    pthread_cond_t changed;
    sd_request_state *head, *tail;
    unsigned int queued;
    int closing;
    int stopping;
    sd_worker *workers;
    unsigned int worker_target;
    unsigned int abandoned_running;
    pthread_t watchdog;
    int has_watchdog;
    long long trimmed_ms;
    // Every open connection, oldest first, with whether it is waiting for a request's head.
    pthread_mutex_t links_lock;
    struct sd_link *oldest, *newest;
    unsigned int links;
    unsigned int connection_limit;
    unsigned int min_body_rate;
};

// One open connection: its socket, and since when it has been waiting for a request's head (a
// new connection, or one kept alive after an answer). A head must be complete within
// `header_timeout` seconds of a new connection (`idle_timeout` after an answer), however the
// bytes trickle in; past it, or when the table is full and this is the longest waiting, the
// socket is shut down and libmicrohttpd closes the connection.
typedef struct sd_link {
    int fd;
    int waiting;
    int answered_before;
    int shut;
    long long waiting_since_ms;
    // A request body being read: since when, and how many bytes have come.
    int receiving;
    long long body_since_ms;
    unsigned long long body_bytes;
    struct sd_link *older, *newer;
} sd_link;

static void set_waiting(struct sd_http_server *server, struct MHD_Connection *connection, int waiting);
static void receiving(struct sd_http_server *server, struct MHD_Connection *connection, int started, size_t bytes);
static void shed(struct sd_http_server *server, long long now, int make_room);

static long long now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000LL + now.tv_nsec / 1000000LL;
}

static uint64_t fnv1a(uint64_t hash, const void *data, size_t length) {
    const unsigned char *bytes = data;
    for (size_t i = 0; i < length; i++) {
        hash ^= bytes[i];
        hash *= 1099511628211ULL;
    }
    return hash;
}

int sd_http_bearer_token(const char *authorization, char token[68]) {
    if (authorization == NULL || strlen(authorization) != 7 + 67 || strncasecmp(authorization, "Bearer ", 7) != 0) return 0;
    const char *value = authorization + 7;
    if (strncmp(value, "sd_", 3) != 0) return 0;
    for (int i = 3; i < 67; i++) {
        char c = value[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return 0;
    }
    memcpy(token, value, 67);
    token[67] = 0;
    return 1;
}

/// The value of cookie `name` in a `Cookie` header (`name=value` pairs split by `;`), copied into
/// `value` (at most `size` - 1 bytes); 0 when it is not there or too long.
static int cookie_value(const char *header, const char *name, char *value, size_t size) {
    size_t name_length = strlen(name);
    for (const char *p = header; p && *p;) {
        while (*p == ' ' || *p == ';') p++;
        const char *end = strchr(p, ';');
        size_t span = end ? (size_t)(end - p) : strlen(p);
        if (span > name_length && strncmp(p, name, name_length) == 0 && p[name_length] == '=') {
            size_t length = span - name_length - 1;
            if (length == 0 || length >= size) return 0;
            memcpy(value, p + name_length + 1, length);
            value[length] = 0;
            return 1;
        }
        p = end;
    }
    return 0;
}

/// Who a request is from, for fairness: the user its credential resolves to, else the address it
/// came from. A credential is resolved only when written exactly so: `Bearer` and a token with
/// spaces around it is not another client, but no credential at all.
static uint64_t client_of(sd_http_server *server, struct MHD_Connection *connection) {
    uint64_t hash = 14695981039346656037ULL;
    if (server->resolve_client) {
        char credential[128];
        uint64_t user = 0;
        const char *authorization = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Authorization");
        const char *cookie = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Cookie");
        if (authorization) {
            if (sd_http_bearer_token(authorization, credential)) user = server->resolve_client(server->resolve_context, SD_CREDENTIAL_TOKEN, credential);
        } else if (cookie && server->session_cookie && cookie_value(cookie, server->session_cookie, credential, sizeof credential)) {
            user = server->resolve_client(server->resolve_context, SD_CREDENTIAL_SESSION, credential);
        }
        if (user != 0) return fnv1a(fnv1a(hash, "u", 1), &user, sizeof user);
    }
    const union MHD_ConnectionInfo *info = mhd.get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info && info->client_addr && info->client_addr->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)info->client_addr;
        return fnv1a(fnv1a(hash, "a", 1), &in->sin_addr, sizeof in->sin_addr);
    }
    return hash;
}

typedef struct {
    const char *keys[SD_MAX_QUERY];
    const char *values[SD_MAX_QUERY];
    int count;
} sd_query;

/// Leaves the URL as the client sent it: the handler splits the path into segments before it
/// decodes each, and the query arguments are decoded below.
static size_t keep_escaped(void *cls, struct MHD_Connection *connection, char *text) {
    (void)cls;
    (void)connection;
    return strlen(text);
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// A query key or value decoded (`+` is a space, `%XX` a byte); malloc'd.
static char *decode_argument(const char *text) {
    size_t length = strlen(text);
    char *out = malloc(length + 1);
    if (!out) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < length; i++) {
        int high, low;
        if (text[i] == '+') {
            out[o++] = ' ';
        } else if (text[i] == '%' && i + 2 < length && (high = hex_value(text[i + 1])) >= 0 && (low = hex_value(text[i + 2])) >= 0) {
            out[o++] = (char)(high * 16 + low);
            i += 2;
        } else {
            out[o++] = text[i];
        }
    }
    out[o] = 0;
    return out;
}

static enum MHD_Result collect_argument(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    sd_query *query = cls;
    if (query->count >= SD_MAX_QUERY) return MHD_NO;
    query->keys[query->count] = key;
    query->values[query->count] = value ? value : "";
    query->count += 1;
    return MHD_YES;
}

// What the header checks found: the first Content-Length and whether another disagrees, how
// many Host headers there are, how many Transfer-Encoding headers came, and whether one names a
// coding other than a lone `chunked` (the only framing this server takes besides a length).
typedef struct {
    const char *first;
    int conflicting;
    int hosts;
    int transfer_encoding;
    int other_coding;
} sd_lengths;

static enum MHD_Result collect_length(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    sd_lengths *lengths = cls;
    if (strcasecmp(key, "Host") == 0) lengths->hosts++;
    if (strcasecmp(key, "Transfer-Encoding") == 0) {
        lengths->transfer_encoding++;
        if (!value || strcasecmp(value, "chunked") != 0) lengths->other_coding = 1;
    }
    if (strcasecmp(key, "Content-Length") != 0) return MHD_YES;
    if (!lengths->first) lengths->first = value ? value : "";
    else if (strcmp(lengths->first, value ? value : "") != 0) lengths->conflicting = 1;
    return MHD_YES;
}

// Whether a header's name or value holds a NUL or another control character but a tab: a CR or
// LF left inside a value, or a NUL that would cut it short for whoever reads it as a C string.
static enum MHD_Result find_control(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size, const char *value,
                                    size_t value_size) {
    (void)kind;
    int *found = cls;
    for (size_t index = 0; index < key_size; index++) {
        if ((unsigned char)key[index] < 0x21 || key[index] == 0x7F) *found = 1;
    }
    for (size_t index = 0; value && index < value_size; index++) {
        unsigned char byte = (unsigned char)value[index];
        if ((byte < 0x20 && byte != '\t') || byte == 0x7F) *found = 1;
    }
    return *found ? MHD_NO : MHD_YES;
}

static enum MHD_Result answer(struct MHD_Connection *connection, unsigned int status, const char *content_type, const char *body,
                              size_t length, const char *set_cookie, const char *location, const char *headers) {
    struct MHD_Response *response = mhd.create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (!response) return MHD_NO;
    mhd.add_response_header(response, "Content-Type", content_type ? content_type : "application/json");
    int cache_control = 0;
    for (const char *line = headers; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t span = end ? (size_t)(end - line) : strlen(line);
        const char *colon = memchr(line, ':', span);
        if (colon && colon > line && span < 1024) {
            char name[1024], value[1024];
            size_t name_length = (size_t)(colon - line);
            memcpy(name, line, name_length);
            name[name_length] = 0;
            const char *start = colon + 1;
            while (*start == ' ' && start < line + span) start++;
            size_t value_length = (size_t)(line + span - start);
            memcpy(value, start, value_length);
            value[value_length] = 0;
            if (strcasecmp(name, "Cache-Control") == 0) cache_control = 1;
            mhd.add_response_header(response, name, value);
        }
        line = end ? end + 1 : line + span;
    }
    if (!cache_control) mhd.add_response_header(response, "Cache-Control", "no-store");
    mhd.add_response_header(response, "X-Content-Type-Options", "nosniff");
    if (set_cookie) mhd.add_response_header(response, "Set-Cookie", set_cookie);
    if (location) mhd.add_response_header(response, "Location", location);
    if (status == 503) mhd.add_response_header(response, "Retry-After", "1");
    enum MHD_Result result = mhd.queue_response(connection, status, response);
    mhd.destroy_response(response);
    return result;
}

static enum MHD_Result answer_json(struct MHD_Connection *connection, unsigned int status, const char *json) {
    return answer(connection, status, "application/json", json, strlen(json), NULL, NULL, NULL);
}

// A request whose framing or headers cannot be trusted: 400, and the connection closed after it,
// so nothing that follows on it (a smuggled second request) is read as a request.
static enum MHD_Result refuse_framing(struct MHD_Connection *connection, const char *json) {
    return answer(connection, 400, "application/json", json, strlen(json), NULL, NULL, "Connection: close");
}

static void free_response(sd_http_response *response) {
    free(response->content_type);
    free(response->body);
    free(response->set_cookie);
    free(response->location);
    free(response->headers);
    memset(response, 0, sizeof *response);
}

static void free_state(sd_request_state *state) {
    free(state->body);
    free(state->method);
    free(state->path);
    free(state->authorization);
    free(state->cookie);
    free(state->content_type);
    free(state->origin);
    free(state->host);
    free(state->accept_language);
    free(state->if_none_match);
    free(state->forwarded_proto);
    free(state->request_id);
    free(state->preflight_method);
    free(state->forwarded_for);
    free(state->idempotency_key);
    for (int index = 0; index < state->query_count; index++) {
        free(state->query_keys[index]);
        free(state->query_values[index]);
    }
    if (state->answered) free_response(&state->response);
    free(state);
}

/// Requests of `client` being answered, by live workers and by abandoned ones still running.
static unsigned int running_for(sd_http_server *server, uint64_t client) {
    unsigned int count = 0;
    for (sd_worker *worker = server->workers; worker; worker = worker->next) {
        if (worker->exited) continue;
        if ((worker->current || worker->abandoned) && worker->client == client) count++;
    }
    return count;
}

static unsigned int queued_for(sd_http_server *server, uint64_t client) {
    unsigned int count = 0;
    for (sd_request_state *state = server->head; state; state = state->next)
        if (state->client == client) count++;
    return count;
}

/// The oldest queued request whose client may have one more answered now; called with the lock.
static sd_request_state *take(sd_http_server *server) {
    sd_request_state *previous = NULL;
    for (sd_request_state *state = server->head; state; previous = state, state = state->next) {
        if (server->closing || running_for(server, state->client) < server->per_client_workers) {
            if (previous) previous->next = state->next; else server->head = state->next;
            if (server->tail == state) server->tail = previous;
            state->next = NULL;
            server->queued--;
            return state;
        }
    }
    return NULL;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size, void **req_cls) {
    sd_http_server *server = cls;
    sd_request_state *state = *req_cls;
    if (!state) {
        // The headers are complete: from here the connection's idle timeout applies.
        if (server->header_timeout != server->idle_timeout)
            mhd.set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, server->idle_timeout);
        set_waiting(server, connection, 0);
        state = calloc(1, sizeof *state);
        if (!state) return MHD_NO;
        *req_cls = state;
        atomic_fetch_add(&server->in_flight, 1);
        state->counted = 1;
        // Answered here, before any body is read: what needs no worker never waits for one.
        if (version && strcmp(version, "HTTP/1.1") == 0 && !mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Host")) {
            state->answered = -1;
            return answer_json(connection, 400, "{\"error\":{\"code\":\"bad_request\",\"message\":\"an HTTP/1.1 request needs a Host header\"}}\n");
        }
        sd_lengths lengths = {NULL, 0, 0, 0, 0};
        mhd.get_connection_values(connection, MHD_HEADER_KIND, collect_length, &lengths);
        if (lengths.conflicting) {
            state->answered = -1;
            return refuse_framing(connection, "{\"error\":{\"code\":\"bad_request\",\"message\":\"the request has Content-Length headers that disagree\"}}\n");
        }
        if (lengths.first && lengths.transfer_encoding) {
            state->answered = -1;
            return refuse_framing(connection, "{\"error\":{\"code\":\"bad_request\",\"message\":\"the request has both Content-Length and Transfer-Encoding\"}}\n");
        }
        if (lengths.transfer_encoding > 1 || lengths.other_coding) {
            state->answered = -1;
            return refuse_framing(connection, "{\"error\":{\"code\":\"bad_request\",\"message\":\"the request's Transfer-Encoding must be one header saying chunked\"}}\n");
        }
        if (lengths.hosts > 1) {
            state->answered = -1;
            return refuse_framing(connection, "{\"error\":{\"code\":\"bad_request\",\"message\":\"the request has more than one Host header\"}}\n");
        }
        int control = 0;
        mhd.get_connection_values_n(connection, MHD_HEADER_KIND, find_control, &control);
        if (control) {
            state->answered = -1;
            return refuse_framing(connection, "{\"error\":{\"code\":\"bad_request\",\"message\":\"a header holds a NUL, CR, LF or another control character\"}}\n");
        }
        if (strcmp(method, "GET") == 0 && strcmp(url, "/healthz") == 0) {
            state->answered = -1;
            return answer(connection, 200, "text/plain; charset=utf-8", "ok\n", 3, NULL, NULL, NULL);
        }
        if (lengths.first && strtoull(lengths.first, NULL, 10) > server->max_body) state->too_large = 1;
        // A body follows: from now on it must keep up the minimum rate.
        if ((lengths.first && strtoull(lengths.first, NULL, 10) > 0) || lengths.transfer_encoding) receiving(server, connection, 1, 0);
        return MHD_YES;
    }
    if (state->answered == -1) {
        receiving(server, connection, *upload_data_size > 0 ? -1 : 0, *upload_data_size);
        *upload_data_size = 0;
        return MHD_YES;
    }
    // The whole body has come (this call carries none).
    if (*upload_data_size == 0) receiving(server, connection, 0, 0);
    if (*upload_data_size > 0) {
        size_t size = *upload_data_size;
        *upload_data_size = 0;
        receiving(server, connection, -1, size);
        if (state->too_large || state->length + size > server->max_body) {
            state->too_large = 1;
            return MHD_YES;
        }
        if (state->length + size > state->capacity) {
            size_t capacity = state->capacity ? state->capacity : 4096;
            while (capacity < state->length + size) capacity *= 2;
            char *grown = realloc(state->body, capacity);
            if (!grown) return MHD_NO;
            state->body = grown;
            state->capacity = capacity;
        }
        memcpy(state->body + state->length, upload_data, size);
        state->length += size;
        return MHD_YES;
    }
    if (state->answered) {
        enum MHD_Result result = answer(connection, state->response.status, state->response.content_type,
                                        state->response.body ? state->response.body : "", state->response.body ? state->response.body_length : 0,
                                        state->response.set_cookie, state->response.location, state->response.headers);
        return result;
    }
    if (state->queued) return MHD_YES;
    sd_query query = {.count = 0};
    mhd.get_connection_values(connection, MHD_GET_ARGUMENT_KIND, collect_argument, &query);
    state->connection = connection;
    state->client = client_of(server, connection);
    state->method = strdup(method);
    state->path = strdup(url);
    const char *value;
    state->authorization = (value = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Authorization")) ? strdup(value) : NULL;
    state->cookie = (value = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Cookie")) ? strdup(value) : NULL;
    state->content_type = (value = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Type")) ? strdup(value) : NULL;
    state->origin = (value = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Origin")) ? strdup(value) : NULL;
    state->host = (value = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Host")) ? strdup(value) : NULL;
    state->accept_language = (value = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Accept-Language")) ? strdup(value) : NULL;
    state->if_none_match = (value = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "If-None-Match")) ? strdup(value) : NULL;
    state->forwarded_proto = (value = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "X-Forwarded-Proto")) ? strdup(value) : NULL;
    state->request_id = (value = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "X-Request-Id")) ? strdup(value) : NULL;
    state->preflight_method = (value = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Access-Control-Request-Method")) ? strdup(value) : NULL;
    state->forwarded_for = (value = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "X-Forwarded-For")) ? strdup(value) : NULL;
    state->idempotency_key = (value = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Idempotency-Key")) ? strdup(value) : NULL;
    state->address[0] = 0;
    const union MHD_ConnectionInfo *peer = mhd.get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (peer && peer->client_addr && peer->client_addr->sa_family == AF_INET) {
        inet_ntop(AF_INET, &((const struct sockaddr_in *)peer->client_addr)->sin_addr, state->address, sizeof state->address);
    }
    for (int index = 0; index < query.count; index++) {
        state->query_keys[index] = decode_argument(query.keys[index]);
        state->query_values[index] = decode_argument(query.values[index]);
    }
    state->query_count = query.count;
    pthread_mutex_lock(&server->lock);
    if (server->closing) {
        // The workers are gone: nobody would resume this connection.
        pthread_mutex_unlock(&server->lock);
        return answer_json(connection, 503, "{\"error\":{\"code\":\"server_busy\",\"message\":\"the server is shutting down\"}}\n");
    }
    if (server->queued >= SD_MAX_QUEUED || queued_for(server, state->client) >= server->per_client_queue) {
        pthread_mutex_unlock(&server->lock);
        return answer_json(connection, 503, "{\"error\":{\"code\":\"server_busy\",\"message\":\"too many requests are waiting; try again in a moment\"}}\n");
    }
    state->queued = 1;
    mhd.suspend_connection(connection);
    state->next = NULL;
    if (server->tail) server->tail->next = state; else server->head = state;
    server->tail = state;
    server->queued++;
    pthread_cond_broadcast(&server->ready);
    pthread_mutex_unlock(&server->lock);
    return MHD_YES;
}

static int start_worker(sd_http_server *server);

enum { FATE_RUNNING = 0, FATE_COMMITTING, FATE_GIVEN_UP };

/// The request the calling worker thread is answering, for sd_http_claim_commit.
static _Thread_local struct {
    sd_http_server *server;
    sd_request_state *state;
} serving;

int sd_http_claim_commit(void) {
    sd_http_server *server = serving.server;
    sd_request_state *state = serving.state;
    if (!server || !state) return 1;
    pthread_mutex_lock(&server->lock);
    int allowed = state->fate != FATE_GIVEN_UP;
    if (allowed) state->fate = FATE_COMMITTING;
    pthread_mutex_unlock(&server->lock);
    return allowed;
}

// A worker: takes complete requests in order, answers each with the handler, and hands the
// connection back to libmicrohttpd, which then sends the answer.
static void *work(void *argument) {
    sd_worker *self = argument;
    sd_http_server *server = self->server;
    pthread_mutex_lock(&server->lock);
    for (;;) {
        sd_request_state *state;
        while (!(state = take(server)) && !server->closing) pthread_cond_wait(&server->ready, &server->lock);
        if (!state) break;
        self->current = state;
        self->client = state->client;
        self->started_ms = now_ms();
        state->with_worker = 1;
        pthread_mutex_unlock(&server->lock);
        sd_http_request request = {
            .method = state->method,
            .path = state->path,
            .authorization = state->authorization,
            .cookie = state->cookie,
            .content_type = state->content_type,
            .origin = state->origin,
            .host = state->host,
            .accept_language = state->accept_language,
            .if_none_match = state->if_none_match,
            .forwarded_proto = state->forwarded_proto,
            .request_id = state->request_id,
            .preflight_method = state->preflight_method,
            .forwarded_for = state->forwarded_for,
            .idempotency_key = state->idempotency_key,
            .address = state->address,
            .query_keys = (const char *const *)state->query_keys,
            .query_values = (const char *const *)state->query_values,
            .query_count = state->query_count,
            .body = state->body ? state->body : "",
            .body_length = state->length,
            .body_too_large = state->too_large,
        };
        sd_http_response response = {.status = 500};
        serving.server = server;
        serving.state = state;
        server->handler(server->context, &request, &response);
        serving.server = NULL;
        serving.state = NULL;
        pthread_mutex_lock(&server->lock);
        state->with_worker = 0;
        if (self->abandoned) {
            // The watchdog answered this request and put a new worker in this one's place.
            free_response(&response);
            if (state->orphaned) free_state(state);
            server->abandoned_running--;
            break;
        }
        self->current = NULL;
        state->response = response;
        state->answered = 1;
        pthread_cond_broadcast(&server->ready); // this client may have another request taken now
        pthread_mutex_unlock(&server->lock);
        // The last touch: once resumed, libmicrohttpd may finish and free the request.
        mhd.resume_connection(state->connection);
        pthread_mutex_lock(&server->lock);
    }
    self->exited = 1;
    pthread_cond_broadcast(&server->changed);
    pthread_mutex_unlock(&server->lock);
    return NULL;
}

static int start_worker(sd_http_server *server) {
    sd_worker *worker = calloc(1, sizeof *worker);
    if (!worker) return -1;
    worker->server = server;
    if (pthread_create(&worker->thread, NULL, work, worker) != 0) {
        free(worker);
        return -1;
    }
    worker->next = server->workers;
    server->workers = worker;
    return 0;
}

// Error bodies written here have the shape and codes of every other (ErrorCode in StackDay).

// Every 100 ms: a request a worker has held past the hard deadline is answered 503 and its worker
// abandoned (detached, to exit whenever its handler returns) and replaced, so that a stuck call
// can hold neither the client nor a worker nor shutdown. Only a request that has not begun to
// commit is given up; its handler can then commit nothing (sd_http_claim_commit).
static void *watch(void *argument) {
    sd_http_server *server = argument;
    static const char late[] = "{\"error\":{\"code\":\"server_busy\",\"message\":\"the request took too long and was given up\"}}\n";
    pthread_mutex_lock(&server->lock);
    while (!server->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec += 1;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&server->changed, &server->lock, &until);
        if (server->stopping) continue;
        long long now = now_ms();
        // Memory freed by requests (a user's Lua state let go, answers dropped) goes back to the
        // system every few seconds, so the server's size follows what it holds.
        if (now - server->trimmed_ms >= 2000) {
            server->trimmed_ms = now;
            pthread_mutex_unlock(&server->lock);
            malloc_trim(0);
            pthread_mutex_lock(&server->lock);
            if (server->stopping) continue;
        }
        // A head that has not come whole in time is given up, however its bytes trickle.
        pthread_mutex_lock(&server->links_lock);
        shed(server, now, 0);
        pthread_mutex_unlock(&server->links_lock);
        if (server->hard_deadline == 0) continue;
        for (sd_worker *worker = server->workers; worker; worker = worker->next) {
            sd_request_state *state = worker->current;
            if (!state || worker->abandoned || worker->exited) continue;
            if (now - worker->started_ms < (long long)server->hard_deadline * 1000LL) continue;
            // A request that began to commit is answered with its result, however late: a 503
            // for a write that went through would make a client that retries write it twice.
            if (state->fate == FATE_COMMITTING) continue;
            state->fate = FATE_GIVEN_UP;
            worker->abandoned = 1;
            worker->current = NULL;
            pthread_detach(worker->thread);
            server->abandoned_running++;
            atomic_fetch_add(&server->abandoned_total, 1);
            state->response.status = 503;
            state->response.content_type = strdup("application/json");
            state->response.body = malloc(sizeof late);
            if (state->response.body) memcpy(state->response.body, late, sizeof late - 1);
            state->response.body_length = state->response.body ? sizeof late - 1 : 0;
            state->answered = 1;
            if (!server->closing && server->abandoned_running <= SD_ABANDONED_FACTOR * server->worker_target) start_worker(server);
            pthread_mutex_unlock(&server->lock);
            mhd.resume_connection(state->connection);
            pthread_mutex_lock(&server->lock);
            break; // the list may have changed: look again on the next round
        }
    }
    pthread_mutex_unlock(&server->lock);
    return NULL;
}

static void on_completed(void *cls, struct MHD_Connection *connection, void **req_cls, enum MHD_RequestTerminationCode code) {
    (void)code;
    sd_http_server *server = cls;
    sd_request_state *state = *req_cls;
    if (!state) return;
    set_waiting(server, connection, 1);
    *req_cls = NULL;
    if (state->counted) atomic_fetch_sub(&server->in_flight, 1);
    if (state->answered == -1) state->answered = 0;
    pthread_mutex_lock(&server->lock);
    if (state->with_worker) {
        // An abandoned worker still reads the request: it frees it when its handler returns.
        state->orphaned = 1;
        pthread_mutex_unlock(&server->lock);
        return;
    }
    pthread_mutex_unlock(&server->lock);
    free_state(state);
}

// The link of a connection (its socket context), or NULL.
static sd_link *link_of(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = mhd.get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? (sd_link *)info->socket_context : NULL;
}

// Marks a connection as waiting for a head (after an answer) or not (its head is complete).
static void set_waiting(struct sd_http_server *server, struct MHD_Connection *connection, int waiting) {
    sd_link *link = link_of(connection);
    if (!link) return;
    pthread_mutex_lock(&server->links_lock);
    link->waiting = waiting;
    if (waiting) {
        link->answered_before = 1;
        link->waiting_since_ms = now_ms();
    }
    pthread_mutex_unlock(&server->links_lock);
}

// A connection's body: `started` 1 when one begins, 0 when it has all come, -1 when `bytes` more came.
static void receiving(struct sd_http_server *server, struct MHD_Connection *connection, int started, size_t bytes) {
    sd_link *link = link_of(connection);
    if (!link) return;
    pthread_mutex_lock(&server->links_lock);
    if (started == 1) {
        link->receiving = 1;
        link->body_since_ms = now_ms();
        link->body_bytes = 0;
    } else if (started == 0) {
        link->receiving = 0;
    } else {
        link->body_bytes += bytes;
    }
    pthread_mutex_unlock(&server->links_lock);
}

// Shuts down the sockets of connections whose head is overdue or whose body has fallen below the
// minimum rate (averaged from its start, once it has had `header_timeout`); with `make_room`,
// also the one that has waited longest for its head while the table holds more than the limit.
// Called with `links_lock` held.
static void shed(struct sd_http_server *server, long long now, int make_room) {
    unsigned int over = make_room && server->links > server->connection_limit ? server->links - server->connection_limit : 0;
    for (sd_link *link = server->oldest; link; link = link->newer) {
        if (link->receiving && !link->shut && server->min_body_rate) {
            long long elapsed = now - link->body_since_ms;
            if (elapsed > (long long)server->header_timeout * 1000LL
                && link->body_bytes * 1000ULL < (unsigned long long)elapsed * server->min_body_rate) {
                shutdown(link->fd, SHUT_RDWR);
                link->shut = 1;
            }
            continue;
        }
        if (!link->waiting || link->shut) continue;
        long long allowed = (long long)(link->answered_before ? server->idle_timeout : server->header_timeout) * 1000LL;
        if (over > 0 || now - link->waiting_since_ms > allowed) {
            shutdown(link->fd, SHUT_RDWR);
            link->shut = 1;
            if (over > 0) over--;
        }
    }
}

static void on_connection(void *cls, struct MHD_Connection *connection, void **socket_context, enum MHD_ConnectionNotificationCode code) {
    sd_http_server *server = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        // Until its headers are complete, a connection is given `header_timeout` of silence.
        if (server->header_timeout != server->idle_timeout)
            mhd.set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, server->header_timeout);
        const union MHD_ConnectionInfo *info = mhd.get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        sd_link *link = calloc(1, sizeof *link);
        if (!link || !info) {
            free(link);
            return;
        }
        link->fd = info->connect_fd;
        link->waiting = 1;
        link->waiting_since_ms = now_ms();
        pthread_mutex_lock(&server->links_lock);
        link->older = server->newest;
        if (server->newest) server->newest->newer = link; else server->oldest = link;
        server->newest = link;
        server->links++;
        // A full table sheds the connection that has waited longest for its head, so that slow
        // clients cannot keep a new one out.
        if (server->links > server->connection_limit) shed(server, link->waiting_since_ms, 1);
        pthread_mutex_unlock(&server->links_lock);
        *socket_context = link;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        sd_link *link = *socket_context;
        if (!link) return;
        pthread_mutex_lock(&server->links_lock);
        if (link->older) link->older->newer = link->newer; else server->oldest = link->newer;
        if (link->newer) link->newer->older = link->older; else server->newest = link->older;
        server->links--;
        pthread_mutex_unlock(&server->links_lock);
        free(link);
        *socket_context = NULL;
    }
}

static void free_workers(sd_http_server *server) {
    sd_worker *worker = server->workers;
    while (worker) {
        sd_worker *next = worker->next;
        free(worker);
        worker = next;
    }
    server->workers = NULL;
}

/// Lets the workers drain the queue and exit, waiting until `deadline_ms` (now_ms time); returns
/// whether every worker, abandoned ones included, has exited (they are joined then).
static int close_workers(sd_http_server *server, long long deadline_ms) {
    pthread_mutex_lock(&server->lock);
    server->closing = 1;
    pthread_cond_broadcast(&server->ready);
    int done = 0;
    for (;;) {
        done = 1;
        for (sd_worker *worker = server->workers; worker; worker = worker->next)
            if (!worker->exited) done = 0;
        if (done) break;
        long long left = deadline_ms - now_ms();
        if (left <= 0) break;
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        long long ns = until.tv_nsec + (left > 50 ? 50 : left) * 1000000LL;
        until.tv_sec += ns / 1000000000LL;
        until.tv_nsec = ns % 1000000000LL;
        pthread_cond_timedwait(&server->changed, &server->lock, &until);
    }
    pthread_mutex_unlock(&server->lock);
    if (done) {
        for (sd_worker *worker = server->workers; worker; worker = worker->next)
            if (!worker->abandoned) pthread_join(worker->thread, NULL);
    }
    return done;
}

static void stop_watchdog(sd_http_server *server) {
    if (!server->has_watchdog) return;
    pthread_mutex_lock(&server->lock);
    server->stopping = 1;
    pthread_cond_broadcast(&server->changed);
    pthread_mutex_unlock(&server->lock);
    pthread_join(server->watchdog, NULL);
    server->has_watchdog = 0;
}

sd_http_server *sd_http_start(const sd_http_options *options, sd_http_handler handler, void *context, const char **error) {
    pthread_once(&mhd_once, mhd_load);
    if (mhd.error) {
        *error = mhd.error;
        return NULL;
    }
    // Blocks of 4 MiB and more are mapped on their own and unmapped when freed: a request that
    // built a large answer or a policy that built a large string gives the memory back at once,
    // instead of leaving it in a thread's heap (glibc would otherwise raise this threshold to the
    // largest block freed so far, up to 32 MiB).
    mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 8 * 1024 * 1024);
    sd_http_server *server = calloc(1, sizeof *server);
    if (!server) {
        *error = "out of memory";
        return NULL;
    }
    server->handler = handler;
    server->context = context;
    server->max_body = options->max_body;
    server->listen_socket = -1;
    server->idle_timeout = options->idle_timeout;
    server->header_timeout = options->header_timeout && options->header_timeout < options->idle_timeout ? options->header_timeout
                                                                                                        : options->idle_timeout;
    server->worker_target = options->threads ? options->threads : 1;
    server->per_client_workers = options->per_client_workers ? options->per_client_workers : 1;
    server->per_client_queue = options->per_client_queue ? options->per_client_queue : 1;
    server->resolve_client = options->resolve_client;
    server->resolve_context = options->resolve_context;
    server->session_cookie = options->session_cookie ? strdup(options->session_cookie) : NULL;
    server->hard_deadline = options->hard_deadline;
    server->min_body_rate = options->min_body_rate;
    atomic_init(&server->in_flight, 0);
    atomic_init(&server->abandoned_total, 0);
    pthread_mutex_init(&server->lock, NULL);
    pthread_mutex_init(&server->links_lock, NULL);
    server->connection_limit = options->connection_limit;
    pthread_cond_init(&server->ready, NULL);
    pthread_cond_init(&server->changed, NULL);
    pthread_mutex_lock(&server->lock);
    int started = 0;
    for (unsigned int index = 0; index < server->worker_target; index++) started |= start_worker(server);
    if (started == 0 && pthread_create(&server->watchdog, NULL, watch, server) == 0) server->has_watchdog = 1;
    pthread_mutex_unlock(&server->lock);
    if (started != 0 || !server->has_watchdog) {
        *error = "cannot start the worker threads";
        stop_watchdog(server);
        close_workers(server, now_ms() + 1000);
        free_workers(server);
        free(server->session_cookie);
        free(server);
        return NULL;
    }
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(options->port);
    address.sin_addr.s_addr = options->address;
    unsigned int flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME;
    // With TLS the certificate comes from a callback, so that a reload reaches new handshakes
    // without restarting the daemon or dropping a connection.
    if (options->tls) flags |= MHD_USE_TLS;
    server->daemon = mhd.start_daemon(
        flags, options->port, NULL, NULL, on_request, server,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_CONNECTION_TIMEOUT, options->idle_timeout,
        // Room above the limit for a new connection to arrive and a waiting one to be shed.
        MHD_OPTION_CONNECTION_LIMIT, options->connection_limit + SD_SHED_HEADROOM,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, options->per_address_limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, options->connection_memory,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, server,
        MHD_OPTION_NOTIFY_CONNECTION, on_connection, server,
        MHD_OPTION_UNESCAPE_CALLBACK, keep_escaped, NULL,
        options->tls ? MHD_OPTION_HTTPS_CERT_CALLBACK : MHD_OPTION_END, sd_tls_server_callback(),
        MHD_OPTION_HTTPS_PRIORITIES, SD_TLS_PRIORITIES,
        MHD_OPTION_END);
    if (!server->daemon) {
        stop_watchdog(server);
        close_workers(server, now_ms() + 1000);
        free_workers(server);
        free(server->session_cookie);
        free(server);
        *error = "cannot listen on the address (is the port taken?)";
        return NULL;
    }
    const union MHD_DaemonInfo *info = mhd.get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    server->port = info ? info->port : options->port;
    return server;
}

uint16_t sd_http_port(sd_http_server *server) { return server->port; }

unsigned int sd_http_connections(sd_http_server *server) {
    const union MHD_DaemonInfo *info = server->daemon ? mhd.get_daemon_info(server->daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS) : NULL;
    return info ? info->num_connections : 0;
}

void sd_http_quiesce(sd_http_server *server) {
    if (server->listen_socket >= 0) return;
    server->listen_socket = mhd.quiesce_daemon(server->daemon);
}

unsigned int sd_http_in_flight(sd_http_server *server) { return atomic_load(&server->in_flight); }

unsigned int sd_http_abandoned(sd_http_server *server) { return atomic_load(&server->abandoned_total); }

int sd_http_stop(sd_http_server *server, unsigned int grace_ms) {
    // Workers finish the requests they hold and answer the queued ones before they exit, so that
    // no connection is left suspended (stopping the daemon with one would leak it). A worker still
    // busy at the deadline is left as it is, and so is everything it may touch.
    stop_watchdog(server);
    if (!close_workers(server, now_ms() + grace_ms)) return -1;
    mhd.stop_daemon(server->daemon);
    free_workers(server);
    if (server->listen_socket >= 0) close(server->listen_socket);
    free(server->session_cookie);
    free(server);
    return 0;
}

// `gettid` through `syscall`, which Swift cannot call (it is variadic); on Linux `setpriority`
// with a thread id sets that thread's nice value only.
int sd_lower_thread_priority(int by) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), by);
}
