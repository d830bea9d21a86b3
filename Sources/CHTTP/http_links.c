#include "http_internal.h"

// The link of a connection (its socket context), or NULL.
static sd_link *link_of(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = mhd.get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? (sd_link *)info->socket_context : NULL;
}

// Marks a connection as waiting for a head (after an answer) or not (its head is complete).
void sdh_set_waiting(struct sd_http_server *server, struct MHD_Connection *connection, int waiting) {
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
void sdh_receiving(struct sd_http_server *server, struct MHD_Connection *connection, int started, size_t bytes) {
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
void sdh_shed(struct sd_http_server *server, long long now, int make_room) {
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

void sdh_on_connection(void *cls, struct MHD_Connection *connection, void **socket_context, enum MHD_ConnectionNotificationCode code) {
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
        if (server->links > server->connection_limit) sdh_shed(server, link->waiting_since_ms, 1);
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

