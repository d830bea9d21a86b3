// Drives the HTTP layer's parsers and its fair queue under AddressSanitizer and
// UndefinedBehaviorSanitizer (scripts/sanitize-http.sh): known cases with their answers, then
// random input for the parsers. Exits 1 on the first wrong answer; a sanitizer aborts on a fault.
#include "http_internal.h"

static int failures = 0;

static void expect(int condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "FAIL %s\n", what);
        failures++;
    }
}

static void tokens(void) {
    char token[68];
    char good[80] = "Bearer sd_";
    for (int i = 0; i < 64; i++) good[10 + i] = "0123456789abcdef"[i % 16];
    good[74] = 0;
    expect(sd_http_bearer_token(good, token) == 1 && strncmp(token, "sd_0123", 7) == 0 && strlen(token) == 67, "a well-formed bearer token is read");
    char lower[80];
    strcpy(lower, good);
    memcpy(lower, "bearer", 6);
    expect(sd_http_bearer_token(lower, token) == 1, "the scheme is read in any case");
    char upper[80];
    strcpy(upper, good);
    upper[20] = 'A';
    expect(sd_http_bearer_token(upper, token) == 0, "upper-case hex is not a token");
    expect(sd_http_bearer_token("Bearer sd_00", token) == 0, "a short token is refused");
    expect(sd_http_bearer_token(NULL, token) == 0, "no header is no token");
    char longer[90];
    snprintf(longer, sizeof longer, "%s0", good);
    expect(sd_http_bearer_token(longer, token) == 0, "a long token is refused");
}

static void cookies(void) {
    char value[32];
    expect(sdh_cookie_value("a=1; stackday_session=ss_abc; b=2", "stackday_session", value, sizeof value) == 1 && strcmp(value, "ss_abc") == 0,
           "a cookie among others is found");
    expect(sdh_cookie_value("xstackday_session=evil", "stackday_session", value, sizeof value) == 0, "a longer name is another cookie");
    expect(sdh_cookie_value("stackday_session=", "stackday_session", value, sizeof value) == 0, "an empty value is none");
    expect(sdh_cookie_value("stackday_session=0123456789012345678901234567890123456789", "stackday_session", value, sizeof value) == 0,
           "a value longer than the buffer is none");
    expect(sdh_cookie_value(";;  ;stackday_session=v;", "stackday_session", value, sizeof value) == 1 && strcmp(value, "v") == 0,
           "separators around it do not matter");
    expect(sdh_cookie_value("", "stackday_session", value, sizeof value) == 0, "an empty header has none");
}

static void arguments(void) {
    struct { const char *in, *out; } cases[] = {
        {"a+b", "a b"}, {"%41%62", "Ab"}, {"%zz", "%zz"}, {"%4", "%4"}, {"100%", "100%"}, {"%e2%82%ac", "\xe2\x82\xac"}, {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *decoded = sdh_decode_argument(cases[i].in);
        expect(decoded && strcmp(decoded, cases[i].out) == 0, cases[i].in);
        free(decoded);
    }
    sd_query query = {0};
    for (int i = 0; i < SD_MAX_QUERY + 3; i++) sdh_collect_argument(&query, MHD_GET_ARGUMENT_KIND, "k", i % 2 ? NULL : "v");
    expect(query.count == SD_MAX_QUERY, "the query keeps at most SD_MAX_QUERY arguments");
    expect(strcmp(query.values[1], "") == 0, "an argument without a value has an empty one");
}

static void framing(void) {
    sd_lengths same = {0};
    sdh_collect_length(&same, MHD_HEADER_KIND, "Content-Length", "5");
    sdh_collect_length(&same, MHD_HEADER_KIND, "content-length", "5");
    sdh_collect_length(&same, MHD_HEADER_KIND, "Host", "a");
    expect(!same.conflicting && same.hosts == 1 && strcmp(same.first, "5") == 0, "two equal lengths agree");
    sd_lengths other = {0};
    sdh_collect_length(&other, MHD_HEADER_KIND, "Content-Length", "5");
    sdh_collect_length(&other, MHD_HEADER_KIND, "Content-Length", "6");
    sdh_collect_length(&other, MHD_HEADER_KIND, "Host", "a");
    sdh_collect_length(&other, MHD_HEADER_KIND, "Host", "b");
    expect(other.conflicting && other.hosts == 2, "two lengths that differ conflict; two hosts are counted");
    sd_lengths codings = {0};
    sdh_collect_length(&codings, MHD_HEADER_KIND, "Transfer-Encoding", "chunked");
    expect(codings.transfer_encoding == 1 && !codings.other_coding, "a lone chunked is framing");
    sdh_collect_length(&codings, MHD_HEADER_KIND, "Transfer-Encoding", "identity");
    expect(codings.transfer_encoding == 2 && codings.other_coding, "another coding is seen");
    int found = 0;
    sdh_find_control(&found, MHD_HEADER_KIND, "X-A", 3, "a\tb", 3);
    expect(!found, "a tab in a value is allowed");
    sdh_find_control(&found, MHD_HEADER_KIND, "X-A", 3, "a\rb", 3);
    expect(found, "a CR in a value is found");
    found = 0;
    sdh_find_control(&found, MHD_HEADER_KIND, "X\x7f", 2, "ab", 2);
    expect(found, "DEL in a name is found");
    found = 0;
    sdh_find_control(&found, MHD_HEADER_KIND, "X-A", 3, "a\0b", 3);
    expect(found, "a NUL inside a value is found");
}

static sd_request_state *request(uint64_t client) {
    sd_request_state *state = calloc(1, sizeof *state);
    state->client = client;
    return state;
}

static void queue(void) {
    sd_http_server server;
    memset(&server, 0, sizeof server);
    server.per_client_workers = 1;
    sd_request_state *a1 = request(1), *a2 = request(1), *b1 = request(2);
    server.head = a1;
    a1->next = a2;
    a2->next = b1;
    server.tail = b1;
    server.queued = 3;
    sd_worker busy = {0};
    sd_request_state *held = request(1);
    busy.current = held;
    busy.client = 1;
    server.workers = &busy;
    expect(sdh_queued_for(&server, 1) == 2 && sdh_queued_for(&server, 2) == 1, "queued requests are counted by client");
    expect(sdh_running_for(&server, 1) == 1 && sdh_running_for(&server, 2) == 0, "running requests are counted by client");
    sd_request_state *first = sdh_take(&server);
    expect(first == b1 && server.queued == 2 && server.tail == a2, "a client at its limit waits; the next client's request goes first");
    expect(sdh_take(&server) == NULL, "nothing more while the busy client is at its limit");
    busy.abandoned = 1;
    busy.current = NULL;
    expect(sdh_take(&server) == NULL, "an abandoned worker still running counts toward its client");
    busy.exited = 1;
    expect(sdh_take(&server) == a1 && sdh_take(&server) == a2 && server.head == NULL && server.tail == NULL && server.queued == 0,
           "once it exits, the client's requests go in order");
    server.closing = 1;
    expect(sdh_take(&server) == NULL, "an empty queue gives nothing");
    free(a1);
    free(a2);
    free(b1);
    free(held);
}

static uint64_t state = 88172645463325252ULL;
static uint64_t next_random(void) {
    // Marsaglia's xorshift64 (Journal of Statistical Software 8(14), 2003).
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static void random_input(int cases) {
    char text[96], value[24];
    for (int i = 0; i < cases; i++) {
        size_t length = next_random() % (sizeof text - 1);
        static const char alphabet[] = "ab%+=;  sd_0f9A\x01\x7f\xff";
        for (size_t j = 0; j < length; j++) text[j] = alphabet[next_random() % (sizeof alphabet - 1)];
        text[length] = 0;
        char *decoded = sdh_decode_argument(text);
        expect(decoded && strlen(decoded) <= length, "a decoded argument is never longer");
        free(decoded);
        sdh_cookie_value(text, "a", value, sizeof value);
        char token[68];
        sd_http_bearer_token(text, token);
        int found = 0;
        sdh_find_control(&found, MHD_HEADER_KIND, text, length, text, length);
    }
}

int main(int argc, char **argv) {
    int cases = argc > 1 ? atoi(argv[1]) : 100000;
    tokens();
    cookies();
    arguments();
    framing();
    queue();
    random_input(cases);
    if (failures) return 1;
    printf("http parsers and queue: every case right, %d random inputs clean\n", cases);
    return 0;
}
