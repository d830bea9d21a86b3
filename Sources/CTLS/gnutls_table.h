#ifndef STACKDAY_GNUTLS_TABLE_H
#define STACKDAY_GNUTLS_TABLE_H

// GnuTLS is opened with dlopen the first time TLS is used (a server with --tls-cert, a sync or a
// webhook to an https:// address), not linked: every other command starts without it and the
// libraries it brings. The files of this module include this header after GnuTLS's own; each
// GnuTLS function they call then goes through `sd_gnutls`, which `sd_gnutls_load` fills. The
// loader itself defines SD_GNUTLS_LOADER first: it names GnuTLS's own symbols.

#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>

#define SD_GNUTLS_FUNCTIONS(X) \
    X(strerror) X(certificate_free_credentials) X(pcert_deinit) X(deinit) X(pubkey_get_key_id) X(privkey_deinit) \
    X(transport_set_int2) X(session_set_verify_cert) X(session_get_verify_cert_status) X(server_name_set) X(record_send) \
    X(record_recv) X(pubkey_init) X(pubkey_import_privkey) X(pubkey_deinit) X(privkey_init) X(privkey_import_x509_raw) \
    X(priority_set_direct) X(pcert_list_import_x509_file) X(load_file) X(init) X(hash_fast) X(handshake_set_timeout) \
    X(handshake) X(error_is_fatal) X(credentials_set) X(certificate_set_x509_trust_mem) \
    X(certificate_set_x509_system_trust) X(certificate_allocate_credentials) X(bye) X(global_init)

typedef struct sd_gnutls_functions {
#define SD_GNUTLS_FIELD(name) __typeof__(gnutls_##name) *name;
    SD_GNUTLS_FUNCTIONS(SD_GNUTLS_FIELD)
#undef SD_GNUTLS_FIELD
    // `gnutls_free` is a variable holding the library's deallocator.
    gnutls_free_function release;
} sd_gnutls_functions;

extern sd_gnutls_functions sd_gnutls;

/// Opens libgnutls.so.30 once; 0 when its functions are ready, else -1 with `error` naming the
/// Debian package.
int sd_gnutls_load(const char **error);

#ifndef SD_GNUTLS_LOADER
#define gnutls_strerror sd_gnutls.strerror
#define gnutls_certificate_free_credentials sd_gnutls.certificate_free_credentials
#define gnutls_pcert_deinit sd_gnutls.pcert_deinit
#define gnutls_deinit sd_gnutls.deinit
#define gnutls_pubkey_get_key_id sd_gnutls.pubkey_get_key_id
#define gnutls_privkey_deinit sd_gnutls.privkey_deinit
#define gnutls_transport_set_int2 sd_gnutls.transport_set_int2
#define gnutls_session_set_verify_cert sd_gnutls.session_set_verify_cert
#define gnutls_session_get_verify_cert_status sd_gnutls.session_get_verify_cert_status
#define gnutls_server_name_set sd_gnutls.server_name_set
#define gnutls_record_send sd_gnutls.record_send
#define gnutls_record_recv sd_gnutls.record_recv
#define gnutls_pubkey_init sd_gnutls.pubkey_init
#define gnutls_pubkey_import_privkey sd_gnutls.pubkey_import_privkey
#define gnutls_pubkey_deinit sd_gnutls.pubkey_deinit
#define gnutls_privkey_init sd_gnutls.privkey_init
#define gnutls_privkey_import_x509_raw sd_gnutls.privkey_import_x509_raw
#define gnutls_priority_set_direct sd_gnutls.priority_set_direct
#define gnutls_pcert_list_import_x509_file sd_gnutls.pcert_list_import_x509_file
#define gnutls_load_file sd_gnutls.load_file
#define gnutls_init sd_gnutls.init
#define gnutls_hash_fast sd_gnutls.hash_fast
#define gnutls_handshake_set_timeout sd_gnutls.handshake_set_timeout
#define gnutls_handshake sd_gnutls.handshake
#define gnutls_error_is_fatal sd_gnutls.error_is_fatal
#define gnutls_credentials_set sd_gnutls.credentials_set
#define gnutls_certificate_set_x509_trust_mem sd_gnutls.certificate_set_x509_trust_mem
#define gnutls_certificate_set_x509_system_trust sd_gnutls.certificate_set_x509_system_trust
#define gnutls_certificate_allocate_credentials sd_gnutls.certificate_allocate_credentials
#define gnutls_bye sd_gnutls.bye
#define gnutls_global_init sd_gnutls.global_init
#undef gnutls_free
#define gnutls_free(pointer) (sd_gnutls.release((void *)(pointer)), (pointer) = NULL)
#endif

#endif
