#include "CTLS.h"

#include <errno.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include "gnutls_table.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sd_tls_client {
    gnutls_session_t session;
    gnutls_certificate_credentials_t credentials;
    char error[512];
};

static _Thread_local char start_error[512];

// What failed in a certificate's verification, in words a person can act on.
static const struct {
    unsigned int flag;
    const char *words;
} verification_words[] = {
    {GNUTLS_CERT_SIGNER_NOT_FOUND, "unknown issuer"},
    {GNUTLS_CERT_UNEXPECTED_OWNER, "wrong host name"},
    {GNUTLS_CERT_EXPIRED, "expired"},
    {GNUTLS_CERT_NOT_ACTIVATED, "not yet valid"},
    {GNUTLS_CERT_REVOKED, "revoked"},
    {GNUTLS_CERT_INSECURE_ALGORITHM, "insecure algorithm"},
    {GNUTLS_CERT_SIGNER_NOT_CA, "issuer is not a certificate authority"},
    {GNUTLS_CERT_SIGNATURE_FAILURE, "bad signature"},
};

static void describe(sd_tls_client *client, const char *what, int code) {
    if (code == GNUTLS_E_CERTIFICATE_VERIFICATION_ERROR) {
        unsigned int status = gnutls_session_get_verify_cert_status(client->session);
        char found[256] = "";
        for (size_t index = 0; index < sizeof verification_words / sizeof verification_words[0]; index++) {
            if (!(status & verification_words[index].flag)) continue;
            if (found[0]) strncat(found, ", ", sizeof found - strlen(found) - 1);
            strncat(found, verification_words[index].words, sizeof found - strlen(found) - 1);
        }
        snprintf(client->error, sizeof client->error, "the server's certificate is not trusted: %s", found[0] ? found : "not valid");
        return;
    }
    snprintf(client->error, sizeof client->error, "%s: %s", what, gnutls_strerror(code));
}

sd_tls_client *sd_tls_client_start(int fd, const char *host, const unsigned char *authorities, size_t authorities_length,
                                   unsigned int timeout_ms, const char **error) {
    if (sd_gnutls_load(error) != 0) return NULL;
    sd_tls_client *client = calloc(1, sizeof *client);
    if (!client) {
        *error = "out of memory";
        return NULL;
    }
    int code = gnutls_certificate_allocate_credentials(&client->credentials);
    if (code >= 0) code = gnutls_certificate_set_x509_system_trust(client->credentials);
    if (code >= 0 && authorities && authorities_length > 0) {
        gnutls_datum_t pem = {(unsigned char *)authorities, (unsigned int)authorities_length};
        code = gnutls_certificate_set_x509_trust_mem(client->credentials, &pem, GNUTLS_X509_FMT_PEM);
        if (code == 0) code = GNUTLS_E_NO_CERTIFICATE_FOUND;
        if (code < 0) {
            snprintf(start_error, sizeof start_error, "no certificate authority could be read from the PEM given (%s)", gnutls_strerror(code));
            gnutls_certificate_free_credentials(client->credentials);
            free(client);
            *error = start_error;
            return NULL;
        }
    }
    if (code >= 0) code = gnutls_init(&client->session, GNUTLS_CLIENT);
    if (code >= 0) code = gnutls_priority_set_direct(client->session, SD_TLS_PRIORITIES, NULL);
    if (code >= 0) code = gnutls_credentials_set(client->session, GNUTLS_CRD_CERTIFICATE, client->credentials);
    if (code >= 0) code = gnutls_server_name_set(client->session, GNUTLS_NAME_DNS, host, strlen(host));
    if (code < 0) {
        snprintf(start_error, sizeof start_error, "cannot set up TLS: %s", gnutls_strerror(code));
        if (client->session) gnutls_deinit(client->session);
        gnutls_certificate_free_credentials(client->credentials);
        free(client);
        *error = start_error;
        return NULL;
    }
    // The name is checked against the certificate's (an IP address against its IP entries).
    gnutls_session_set_verify_cert(client->session, host, 0);
    gnutls_transport_set_int(client->session, fd);
    gnutls_handshake_set_timeout(client->session, timeout_ms);
    do {
        code = gnutls_handshake(client->session);
    } while (code < 0 && !gnutls_error_is_fatal(code));
    if (code < 0) {
        describe(client, "the TLS handshake failed", code);
        snprintf(start_error, sizeof start_error, "%s", client->error);
        gnutls_deinit(client->session);
        gnutls_certificate_free_credentials(client->credentials);
        free(client);
        *error = start_error;
        return NULL;
    }
    return client;
}

ssize_t sd_tls_client_send(sd_tls_client *client, const void *data, size_t length) {
    size_t sent = 0;
    while (sent < length) {
        ssize_t count = gnutls_record_send(client->session, (const char *)data + sent, length - sent);
        if (count == GNUTLS_E_AGAIN || count == GNUTLS_E_INTERRUPTED) continue;
        if (count < 0) {
            describe(client, "sending failed", (int)count);
            return -1;
        }
        sent += (size_t)count;
    }
    return (ssize_t)sent;
}

ssize_t sd_tls_client_recv(sd_tls_client *client, void *buffer, size_t capacity) {
    for (;;) {
        ssize_t count = gnutls_record_recv(client->session, buffer, capacity);
        if (count == GNUTLS_E_AGAIN || count == GNUTLS_E_INTERRUPTED) continue;
        // A server that closes the connection after its answer without a TLS goodbye is taken
        // as the end of the stream: the answer's own framing says whether it was whole.
        if (count == GNUTLS_E_PREMATURE_TERMINATION) return 0;
        if (count < 0) {
            describe(client, "reading failed", (int)count);
            return -1;
        }
        return count;
    }
}

const char *sd_tls_client_error(sd_tls_client *client) { return client->error; }

void sd_tls_client_end(sd_tls_client *client) {
    gnutls_bye(client->session, GNUTLS_SHUT_WR);
    gnutls_deinit(client->session);
    gnutls_certificate_free_credentials(client->credentials);
    free(client);
}
