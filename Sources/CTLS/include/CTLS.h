#ifndef STACKDAY_CTLS_H
#define STACKDAY_CTLS_H

#include <stddef.h>
#include <sys/types.h>

/// TLS through GnuTLS, TLS 1.2 and 1.3 only: the server's certificate (read from files, reloaded
/// in place) and a client session over a connected socket.

/// The GnuTLS priority string both sides use: TLS 1.3, and TLS 1.2 with ECDHE and an AEAD cipher
/// only (AES-GCM, ChaCha20-Poly1305), as Mozilla's "intermediate" profile has it: no static RSA, no CBC.
#define SD_TLS_PRIORITIES "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305:-MAC-ALL:+AEAD"

/// Loads the server's certificate chain and key (PEM files) as the one the process serves. New
/// handshakes take it; connections already open keep theirs. 0 on success, else -1 with
/// `error` (a static or thread-local message naming the file).
int sd_tls_server_load(const char *cert_file, const char *key_file, const char **error);

/// Whether a certificate is loaded.
int sd_tls_server_loaded(void);

/// The SHA-256 of the loaded certificate (the first of its chain), 64 hex digits and a NUL.
int sd_tls_server_fingerprint(char out[65]);

/// The function libmicrohttpd's `MHD_OPTION_HTTPS_CERT_CALLBACK` takes
/// (`gnutls_certificate_retrieve_function2`), answering the loaded certificate.
void *sd_tls_server_callback(void);

typedef struct sd_tls_client sd_tls_client;

/// A TLS session over the connected socket `fd`, verified for `host` against the system's trust
/// store and, when given, the certificate authorities in `authorities` (PEM text of
/// `authorities_length` bytes). `timeout_ms` bounds the handshake. NULL with `error` (a message of
/// the session's own, valid until the next call on this thread) on failure.
sd_tls_client *sd_tls_client_start(int fd, const char *host, const unsigned char *authorities, size_t authorities_length,
                                   unsigned int timeout_ms, const char **error);

/// Sends all of `length` bytes; -1 on failure.
ssize_t sd_tls_client_send(sd_tls_client *client, const void *data, size_t length);

/// Reads up to `capacity` bytes: the count, 0 at the end of the stream, -1 on failure.
ssize_t sd_tls_client_recv(sd_tls_client *client, void *buffer, size_t capacity);

/// The last failure's message.
const char *sd_tls_client_error(sd_tls_client *client);

/// Says goodbye (best effort) and frees the session; the socket stays the caller's to close.
void sd_tls_client_end(sd_tls_client *client);

#endif
