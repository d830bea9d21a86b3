#include "http_internal.h"

// Reading what a request says: its credential, its client, its query, and whether its framing
// and headers can be trusted.

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
int sdh_cookie_value(const char *header, const char *name, char *value, size_t size) {
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
uint64_t sdh_client_of(sd_http_server *server, struct MHD_Connection *connection) {
    uint64_t hash = 14695981039346656037ULL;
    if (server->resolve_client) {
        char credential[128];
        uint64_t user = 0;
        const char *authorization = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Authorization");
        const char *cookie = mhd.lookup_connection_value(connection, MHD_HEADER_KIND, "Cookie");
        if (authorization) {
            if (sd_http_bearer_token(authorization, credential)) user = server->resolve_client(server->resolve_context, SD_CREDENTIAL_TOKEN, credential);
        } else if (cookie && server->session_cookie && sdh_cookie_value(cookie, server->session_cookie, credential, sizeof credential)) {
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

/// Leaves the URL as the client sent it: the handler splits the path into segments before it
/// decodes each, and the query arguments are decoded below.
size_t sdh_keep_escaped(void *cls, struct MHD_Connection *connection, char *text) {
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
char *sdh_decode_argument(const char *text) {
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

enum MHD_Result sdh_collect_argument(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    sd_query *query = cls;
    if (query->count >= SD_MAX_QUERY) return MHD_NO;
    query->keys[query->count] = key;
    query->values[query->count] = value ? value : "";
    query->count += 1;
    return MHD_YES;
}

enum MHD_Result sdh_collect_length(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
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
enum MHD_Result sdh_find_control(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size, const char *value,
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
