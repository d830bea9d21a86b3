#ifndef STACKDAY_CQRENCODE_H
#define STACKDAY_CQRENCODE_H

// libqrencode (Debian: libqrencode-dev for the header, libqrencode4 for the library) draws the
// pairing link's QR code. It is opened with dlopen the first time a code is drawn, not linked:
// no other command loads it.

#include <stddef.h>

/// A drawn code: `width` × `width` modules, row by row, 1 for a dark module.
typedef struct sd_qr_code {
    int width;
    unsigned char *modules;
} sd_qr_code;

/// Encodes `text` (8-bit bytes, the smallest version that holds it) at error correction level M.
/// Returns a code to free with `sd_qr_free`, or NULL and `*error` set to why: libqrencode.so.4
/// could not be opened (the text names the Debian package), or the text does not fit.
sd_qr_code *sd_qr_encode(const char *text, const char **error);

void sd_qr_free(sd_qr_code *code);

#endif
