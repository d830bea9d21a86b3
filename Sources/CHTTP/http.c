#include "http_internal.h"

static enum MHD_Result on_request(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size, void **req_cls) {
    sd_http_server *server = cls;
    sd_request_state *state = *req_cls;
    if (!state) {
        // The headers are complete: from here the connection's idle timeout applies.
        if (server->header_timeout != server->idle_timeout)
            mhd.set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, server->idle_timeout);
        sdh_set_waiting(server, connection, 0);
        state = calloc(1, sizeof *state);
        if (!state) return MHD_NO;
        *req_cls = state;
        atomic_fetch_add(&server->in_flight, 1);
        state->counted = 1;
        // Answered here, before any body is read: what needs no worker never waits for one.
        if (version && strcmp(version, "HTTP/1.1") == 0 && !mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Host")) {
            state->answered = -1;
            return sdh_answer_json(connection, 400, "{\"error\":{\"code\":\"bad_request\",\"message\":\"an HTTP/1.1 request needs a Host header\"}}\n");
        }
        sd_lengths lengths = {NULL, 0, 0, 0, 0};
        mhd.get_connection_values(connection, MHD_HEADER_KIND, sdh_collect_length, &lengths);
        if (lengths.conflicting) {
            state->answered = -1;
            return sdh_refuse_framing(connection, "{\"error\":{\"code\":\"bad_request\",\"message\":\"the request has Content-Length headers that disagree\"}}\n");
        }
        if (lengths.first && lengths.transfer_encoding) {
            state->answered = -1;
            return sdh_refuse_framing(connection, "{\"error\":{\"code\":\"bad_request\",\"message\":\"the request has both Content-Length and Transfer-Encoding\"}}\n");
        }
        if (lengths.transfer_encoding > 1 || lengths.other_coding) {
            state->answered = -1;
            return sdh_refuse_framing(connection, "{\"error\":{\"code\":\"bad_request\",\"message\":\"the request's Transfer-Encoding must be one header saying chunked\"}}\n");
        }
        if (lengths.hosts > 1) {
            state->answered = -1;
            return sdh_refuse_framing(connection, "{\"error\":{\"code\":\"bad_request\",\"message\":\"the request has more than one Host header\"}}\n");
        }
        int control = 0;
        mhd.get_connection_values_n(connection, MHD_HEADER_KIND, sdh_find_control, &control);
        if (control) {
            state->answered = -1;
            return sdh_refuse_framing(connection, "{\"error\":{\"code\":\"bad_request\",\"message\":\"a header holds a NUL, CR, LF or another control character\"}}\n");
        }
        if (strcmp(method, "GET") == 0 && strcmp(url, "/healthz") == 0) {
            state->answered = -1;
            return sdh_answer(connection, 200, "text/plain; charset=utf-8", "ok\n", 3, NULL, NULL, NULL);
        }
        if (lengths.first && strtoull(lengths.first, NULL, 10) > server->max_body) state->too_large = 1;
        // A body follows: from now on it must keep up the minimum rate.
        if ((lengths.first && strtoull(lengths.first, NULL, 10) > 0) || lengths.transfer_encoding) sdh_receiving(server, connection, 1, 0);
        return MHD_YES;
    }
    if (state->answered == -1) {
        sdh_receiving(server, connection, *upload_data_size > 0 ? -1 : 0, *upload_data_size);
        *upload_data_size = 0;
        return MHD_YES;
    }
    // The whole body has come (this call carries none).
    if (*upload_data_size == 0) sdh_receiving(server, connection, 0, 0);
    if (*upload_data_size > 0) {
        size_t size = *upload_data_size;
        *upload_data_size = 0;
        sdh_receiving(server, connection, -1, size);
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
        enum MHD_Result result = sdh_answer(connection, state->response.status, state->response.content_type,
                                        state->response.body ? state->response.body : "", state->response.body ? state->response.body_length : 0,
                                        state->response.set_cookie, state->response.location, state->response.headers);
        return result;
    }
    if (state->queued) return MHD_YES;
    sd_query query = {.count = 0};
    mhd.get_connection_values(connection, MHD_GET_ARGUMENT_KIND, sdh_collect_argument, &query);
    state->connection = connection;
    state->client = sdh_client_of(server, connection);
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
        state->query_keys[index] = sdh_decode_argument(query.keys[index]);
        state->query_values[index] = sdh_decode_argument(query.values[index]);
    }
    state->query_count = query.count;
    pthread_mutex_lock(&server->lock);
    if (server->closing) {
        // The workers are gone: nobody would resume this connection.
        pthread_mutex_unlock(&server->lock);
        return sdh_answer_json(connection, 503, "{\"error\":{\"code\":\"server_busy\",\"message\":\"the server is shutting down\"}}\n");
    }
    if (server->queued >= SD_MAX_QUEUED || sdh_queued_for(server, state->client) >= server->per_client_queue) {
        pthread_mutex_unlock(&server->lock);
        return sdh_answer_json(connection, 503, "{\"error\":{\"code\":\"server_busy\",\"message\":\"too many requests are waiting; try again in a moment\"}}\n");
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

static void on_completed(void *cls, struct MHD_Connection *connection, void **req_cls, enum MHD_RequestTerminationCode code) {
    (void)code;
    sd_http_server *server = cls;
    sd_request_state *state = *req_cls;
    if (!state) return;
    sdh_set_waiting(server, connection, 1);
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
    sdh_free_state(state);
}

sd_http_server *sd_http_start(const sd_http_options *options, sd_http_handler handler, void *context, const char **error) {
    const char *missing = sdh_load_library();
    if (missing) {
        *error = missing;
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
    for (unsigned int index = 0; index < server->worker_target; index++) started |= sdh_start_worker(server);
    if (started == 0 && pthread_create(&server->watchdog, NULL, sdh_watch, server) == 0) server->has_watchdog = 1;
    pthread_mutex_unlock(&server->lock);
    if (started != 0 || !server->has_watchdog) {
        *error = "cannot start the worker threads";
        sdh_stop_watchdog(server);
        sdh_close_workers(server, now_ms() + 1000);
        sdh_free_workers(server);
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
        MHD_OPTION_NOTIFY_CONNECTION, sdh_on_connection, server,
        MHD_OPTION_UNESCAPE_CALLBACK, sdh_keep_escaped, NULL,
        options->tls ? MHD_OPTION_HTTPS_CERT_CALLBACK : MHD_OPTION_END, sd_tls_server_callback(),
        MHD_OPTION_HTTPS_PRIORITIES, SD_TLS_PRIORITIES,
        MHD_OPTION_END);
    if (!server->daemon) {
        sdh_stop_watchdog(server);
        sdh_close_workers(server, now_ms() + 1000);
        sdh_free_workers(server);
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
    sdh_stop_watchdog(server);
    if (!sdh_close_workers(server, now_ms() + grace_ms)) return -1;
    mhd.stop_daemon(server->daemon);
    sdh_free_workers(server);
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
