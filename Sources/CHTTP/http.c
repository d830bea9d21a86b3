#include "CHTTP.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    __typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
    __typeof__(MHD_add_response_header) *add_response_header;
    __typeof__(MHD_queue_response) *queue_response;
    __typeof__(MHD_destroy_response) *destroy_response;
    __typeof__(MHD_suspend_connection) *suspend_connection;
    __typeof__(MHD_resume_connection) *resume_connection;
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
    SD_LOAD(create_response_from_buffer, MHD_create_response_from_buffer)
    SD_LOAD(add_response_header, MHD_add_response_header)
    SD_LOAD(queue_response, MHD_queue_response)
    SD_LOAD(destroy_response, MHD_destroy_response)
    SD_LOAD(suspend_connection, MHD_suspend_connection)
    SD_LOAD(resume_connection, MHD_resume_connection)
#undef SD_LOAD
}

#define SD_MAX_QUERY 32

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
    struct MHD_Connection *connection;
    char *method, *path, *authorization, *cookie, *content_type;
    char *query_keys[SD_MAX_QUERY];
    char *query_values[SD_MAX_QUERY];
    int query_count;
    sd_http_response response;
    struct sd_request_state *next;
} sd_request_state;

struct sd_http_server {
    struct MHD_Daemon *daemon;
    sd_http_handler handler;
    void *context;
    size_t max_body;
    uint16_t port;
    int listen_socket;
    atomic_uint in_flight;
    // Complete requests in arrival order, taken by `workers` threads: a request never waits
    // behind the other requests of the thread that read it.
    pthread_mutex_t lock;
    pthread_cond_t ready;
    sd_request_state *head, *tail;
    int closing;
    unsigned int worker_count;
    pthread_t *workers;
};

typedef struct {
    const char *keys[SD_MAX_QUERY];
    const char *values[SD_MAX_QUERY];
    int count;
} sd_query;

static enum MHD_Result collect_argument(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    sd_query *query = cls;
    if (query->count >= SD_MAX_QUERY) return MHD_NO;
    query->keys[query->count] = key;
    query->values[query->count] = value ? value : "";
    query->count += 1;
    return MHD_YES;
}

static enum MHD_Result answer(struct MHD_Connection *connection, unsigned int status, const char *content_type, const char *body,
                              size_t length, const char *set_cookie, const char *location) {
    struct MHD_Response *response = mhd.create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (!response) return MHD_NO;
    mhd.add_response_header(response, "Content-Type", content_type ? content_type : "application/json");
    mhd.add_response_header(response, "Cache-Control", "no-store");
    mhd.add_response_header(response, "X-Content-Type-Options", "nosniff");
    if (set_cookie) mhd.add_response_header(response, "Set-Cookie", set_cookie);
    if (location) mhd.add_response_header(response, "Location", location);
    enum MHD_Result result = mhd.queue_response(connection, status, response);
    mhd.destroy_response(response);
    return result;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size, void **req_cls) {
    (void)version;
    sd_http_server *server = cls;
    sd_request_state *state = *req_cls;
    if (!state) {
        state = calloc(1, sizeof *state);
        if (!state) return MHD_NO;
        *req_cls = state;
        atomic_fetch_add(&server->in_flight, 1);
        state->counted = 1;
        const char *declared = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Length");
        if (declared && strtoull(declared, NULL, 10) > server->max_body) state->too_large = 1;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        size_t size = *upload_data_size;
        *upload_data_size = 0;
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
                                        state->response.set_cookie, state->response.location);
        return result;
    }
    if (state->queued) return MHD_YES;
    sd_query query = {.count = 0};
    mhd.get_connection_values(connection, MHD_GET_ARGUMENT_KIND, collect_argument, &query);
    state->connection = connection;
    state->method = strdup(method);
    state->path = strdup(url);
    const char *value;
    state->authorization = (value = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Authorization")) ? strdup(value) : NULL;
    state->cookie = (value = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Cookie")) ? strdup(value) : NULL;
    state->content_type = (value = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Type")) ? strdup(value) : NULL;
    for (int index = 0; index < query.count; index++) {
        state->query_keys[index] = strdup(query.keys[index]);
        state->query_values[index] = strdup(query.values[index]);
    }
    state->query_count = query.count;
    pthread_mutex_lock(&server->lock);
    if (server->closing) {
        // The workers are gone: nobody would resume this connection.
        pthread_mutex_unlock(&server->lock);
        static const char closing[] = "{\"error\":\"the server is shutting down\"}\n";
        return answer(connection, 503, "application/json", closing, sizeof closing - 1, NULL, NULL);
    }
    state->queued = 1;
    mhd.suspend_connection(connection);
    state->next = NULL;
    if (server->tail) server->tail->next = state; else server->head = state;
    server->tail = state;
    pthread_cond_signal(&server->ready);
    pthread_mutex_unlock(&server->lock);
    return MHD_YES;
}

// A worker: takes complete requests in order, answers each with the handler, and hands the
// connection back to libmicrohttpd, which then sends the answer.
static void *work(void *argument) {
    sd_http_server *server = argument;
    for (;;) {
        pthread_mutex_lock(&server->lock);
        while (!server->head && !server->closing) pthread_cond_wait(&server->ready, &server->lock);
        sd_request_state *state = server->head;
        if (state) {
            server->head = state->next;
            if (!server->head) server->tail = NULL;
        }
        pthread_mutex_unlock(&server->lock);
        if (!state) return NULL;
        sd_http_request request = {
            .method = state->method,
            .path = state->path,
            .authorization = state->authorization,
            .cookie = state->cookie,
            .content_type = state->content_type,
            .query_keys = (const char *const *)state->query_keys,
            .query_values = (const char *const *)state->query_values,
            .query_count = state->query_count,
            .body = state->body ? state->body : "",
            .body_length = state->length,
            .body_too_large = state->too_large,
        };
        sd_http_response response = {.status = 500};
        server->handler(server->context, &request, &response);
        state->response = response;
        state->answered = 1;
        // The last touch: once resumed, libmicrohttpd may finish and free the request.
        mhd.resume_connection(state->connection);
    }
}

static void free_response(sd_http_response *response) {
    free(response->content_type);
    free(response->body);
    free(response->set_cookie);
    free(response->location);
}

static void on_completed(void *cls, struct MHD_Connection *connection, void **req_cls, enum MHD_RequestTerminationCode code) {
    (void)connection;
    (void)code;
    sd_http_server *server = cls;
    sd_request_state *state = *req_cls;
    if (!state) return;
    if (state->counted) atomic_fetch_sub(&server->in_flight, 1);
    free(state->body);
    free(state->method);
    free(state->path);
    free(state->authorization);
    free(state->cookie);
    free(state->content_type);
    for (int index = 0; index < state->query_count; index++) {
        free(state->query_keys[index]);
        free(state->query_values[index]);
    }
    if (state->answered) free_response(&state->response);
    free(state);
    *req_cls = NULL;
}

// Lets the workers drain the queue and exit, and waits for them.
static void sd_http_close_workers(sd_http_server *server) {
    pthread_mutex_lock(&server->lock);
    server->closing = 1;
    pthread_cond_broadcast(&server->ready);
    pthread_mutex_unlock(&server->lock);
    for (unsigned int index = 0; index < server->worker_count; index++) pthread_join(server->workers[index], NULL);
    server->worker_count = 0;
}

sd_http_server *sd_http_start(const sd_http_options *options, sd_http_handler handler, void *context, const char **error) {
    pthread_once(&mhd_once, mhd_load);
    if (mhd.error) {
        *error = mhd.error;
        return NULL;
    }
    sd_http_server *server = calloc(1, sizeof *server);
    if (!server) {
        *error = "out of memory";
        return NULL;
    }
    server->handler = handler;
    server->context = context;
    server->max_body = options->max_body;
    server->listen_socket = -1;
    atomic_init(&server->in_flight, 0);
    pthread_mutex_init(&server->lock, NULL);
    pthread_cond_init(&server->ready, NULL);
    server->worker_count = options->threads ? options->threads : 1;
    server->workers = calloc(server->worker_count, sizeof(pthread_t));
    if (!server->workers) {
        free(server);
        *error = "out of memory";
        return NULL;
    }
    for (unsigned int index = 0; index < server->worker_count; index++) {
        if (pthread_create(&server->workers[index], NULL, work, server) != 0) {
            *error = "cannot start the worker threads";
            server->worker_count = index;
            sd_http_close_workers(server);
            free(server->workers);
            free(server);
            return NULL;
        }
    }
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(options->port);
    address.sin_addr.s_addr = options->address;
    unsigned int flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME;
    server->daemon = mhd.start_daemon(
        flags, options->port, NULL, NULL, on_request, server,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_CONNECTION_TIMEOUT, options->idle_timeout,
        MHD_OPTION_CONNECTION_LIMIT, options->connection_limit,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, options->connection_memory,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, server,
        MHD_OPTION_END);
    if (!server->daemon) {
        sd_http_close_workers(server);
        free(server->workers);
        free(server);
        *error = "cannot listen on the address (is the port taken?)";
        return NULL;
    }
    const union MHD_DaemonInfo *info = mhd.get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    server->port = info ? info->port : options->port;
    return server;
}

uint16_t sd_http_port(sd_http_server *server) { return server->port; }

void sd_http_quiesce(sd_http_server *server) {
    if (server->listen_socket >= 0) return;
    server->listen_socket = mhd.quiesce_daemon(server->daemon);
}

unsigned int sd_http_in_flight(sd_http_server *server) { return atomic_load(&server->in_flight); }

void sd_http_stop(sd_http_server *server) {
    // Workers finish the requests they hold and answer the queued ones before they exit, so that
    // no connection is left suspended (stopping the daemon with one would leak it).
    sd_http_close_workers(server);
    mhd.stop_daemon(server->daemon);
    free(server->workers);
    if (server->listen_socket >= 0) close(server->listen_socket);
    free(server);
}
