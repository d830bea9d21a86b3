#include "http_internal.h"

/// Requests of `client` being answered, by live workers and by abandoned ones still running.
unsigned int sdh_running_for(sd_http_server *server, uint64_t client) {
    unsigned int count = 0;
    for (sd_worker *worker = server->workers; worker; worker = worker->next) {
        if (worker->exited) continue;
        if ((worker->current || worker->abandoned) && worker->client == client) count++;
    }
    return count;
}

unsigned int sdh_queued_for(sd_http_server *server, uint64_t client) {
    unsigned int count = 0;
    for (sd_request_state *state = server->head; state; state = state->next)
        if (state->client == client) count++;
    return count;
}

/// The oldest queued request whose client may have one more answered now; called with the lock.
sd_request_state *sdh_take(sd_http_server *server) {
    sd_request_state *previous = NULL;
    for (sd_request_state *state = server->head; state; previous = state, state = state->next) {
        if (server->closing || sdh_running_for(server, state->client) < server->per_client_workers) {
            if (previous) previous->next = state->next; else server->head = state->next;
            if (server->tail == state) server->tail = previous;
            state->next = NULL;
            server->queued--;
            return state;
        }
    }
    return NULL;
}

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
        while (!(state = sdh_take(server)) && !server->closing) pthread_cond_wait(&server->ready, &server->lock);
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
            sdh_free_response(&response);
            if (state->orphaned) sdh_free_state(state);
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

int sdh_start_worker(sd_http_server *server) {
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
void *sdh_watch(void *argument) {
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
        sdh_shed(server, now, 0);
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
            if (!server->closing && server->abandoned_running <= SD_ABANDONED_FACTOR * server->worker_target) sdh_start_worker(server);
            pthread_mutex_unlock(&server->lock);
            mhd.resume_connection(state->connection);
            pthread_mutex_lock(&server->lock);
            break; // the list may have changed: look again on the next round
        }
    }
    pthread_mutex_unlock(&server->lock);
    return NULL;
}

void sdh_free_workers(sd_http_server *server) {
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
int sdh_close_workers(sd_http_server *server, long long deadline_ms) {
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

void sdh_stop_watchdog(sd_http_server *server) {
    if (!server->has_watchdog) return;
    pthread_mutex_lock(&server->lock);
    server->stopping = 1;
    pthread_cond_broadcast(&server->changed);
    pthread_mutex_unlock(&server->lock);
    pthread_join(server->watchdog, NULL);
    server->has_watchdog = 0;
}
