#include "http_internal.h"

enum MHD_Result sdh_answer(struct MHD_Connection *connection, unsigned int status, const char *content_type, const char *body,
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

enum MHD_Result sdh_answer_json(struct MHD_Connection *connection, unsigned int status, const char *json) {
    return sdh_answer(connection, status, "application/json", json, strlen(json), NULL, NULL, NULL);
}

// A request whose framing or headers cannot be trusted: 400, and the connection closed after it,
// so nothing that follows on it (a smuggled second request) is read as a request.
enum MHD_Result sdh_refuse_framing(struct MHD_Connection *connection, const char *json) {
    return sdh_answer(connection, 400, "application/json", json, strlen(json), NULL, NULL, "Connection: close");
}

void sdh_free_response(sd_http_response *response) {
    free(response->content_type);
    free(response->body);
    free(response->set_cookie);
    free(response->location);
    free(response->headers);
    memset(response, 0, sizeof *response);
}

void sdh_free_state(sd_request_state *state) {
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
    if (state->answered) sdh_free_response(&state->response);
    free(state);
}

