// What the HTTP layer's files share: libmicrohttpd's table, the server's and a request's state,
// and the functions one file calls in another (named sdh_…). Not a public header: CHTTP.h is.
#ifndef SD_HTTP_INTERNAL_H
#define SD_HTTP_INTERNAL_H

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

// libmicrohttpd's functions, loaded once (http_library.c).
typedef struct {
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
} sdh_library;
extern sdh_library mhd;

/// Loads libmicrohttpd once; NULL when it is there, else why not.
const char *sdh_load_library(void);

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

typedef struct {
    const char *keys[SD_MAX_QUERY];
    const char *values[SD_MAX_QUERY];
    int count;
} sd_query;

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

enum { FATE_RUNNING = 0, FATE_COMMITTING, FATE_GIVEN_UP };

static inline long long now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000LL + now.tv_nsec / 1000000LL;
}

// Reading requests (http_parse.c).
int sdh_cookie_value(const char *header, const char *name, char *value, size_t size);
uint64_t sdh_client_of(sd_http_server *server, struct MHD_Connection *connection);
size_t sdh_keep_escaped(void *cls, struct MHD_Connection *connection, char *text);
char *sdh_decode_argument(const char *text);
enum MHD_Result sdh_collect_argument(void *cls, enum MHD_ValueKind kind, const char *key, const char *value);
enum MHD_Result sdh_collect_length(void *cls, enum MHD_ValueKind kind, const char *key, const char *value);
enum MHD_Result sdh_find_control(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size, const char *value, size_t value_size);

// Answering (http_answer.c).
enum MHD_Result sdh_answer(struct MHD_Connection *connection, unsigned int status, const char *content_type, const char *body,
                           size_t length, const char *set_cookie, const char *location, const char *headers);
enum MHD_Result sdh_answer_json(struct MHD_Connection *connection, unsigned int status, const char *json);
enum MHD_Result sdh_refuse_framing(struct MHD_Connection *connection, const char *json);
void sdh_free_response(sd_http_response *response);
void sdh_free_state(sd_request_state *state);

// The fair queue, the workers and the watchdog (http_queue.c).
unsigned int sdh_running_for(sd_http_server *server, uint64_t client);
unsigned int sdh_queued_for(sd_http_server *server, uint64_t client);
sd_request_state *sdh_take(sd_http_server *server);
int sdh_start_worker(sd_http_server *server);
void *sdh_watch(void *argument);
void sdh_free_workers(sd_http_server *server);
int sdh_close_workers(sd_http_server *server, long long deadline_ms);
void sdh_stop_watchdog(sd_http_server *server);

// Connections: waiting for a head, reading a body, shedding (http_links.c).
void sdh_set_waiting(struct sd_http_server *server, struct MHD_Connection *connection, int waiting);
void sdh_receiving(struct sd_http_server *server, struct MHD_Connection *connection, int started, size_t bytes);
void sdh_shed(struct sd_http_server *server, long long now, int make_room);
void sdh_on_connection(void *cls, struct MHD_Connection *connection, void **socket_context, enum MHD_ConnectionNotificationCode code);

#endif
