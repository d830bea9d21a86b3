#include "CQRencode.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <qrencode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
    const char *error;
    __typeof__(QRcode_encodeString8bit) *encode;
    __typeof__(QRcode_free) *release;
} sd_qrencode;
static pthread_once_t sd_qrencode_once = PTHREAD_ONCE_INIT;
static char sd_qrencode_error[512];

static void sd_qrencode_load(void) {
    void *handle = dlopen("libqrencode.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(sd_qrencode_error, sizeof sd_qrencode_error, "QR codes need libqrencode (Debian: libqrencode4): %s",
                 reason ? reason : "libqrencode.so.4 could not be loaded");
        sd_qrencode.error = sd_qrencode_error;
        return;
    }
    sd_qrencode.encode = (__typeof__(sd_qrencode.encode))dlsym(handle, "QRcode_encodeString8bit");
    sd_qrencode.release = (__typeof__(sd_qrencode.release))dlsym(handle, "QRcode_free");
    if (!sd_qrencode.encode || !sd_qrencode.release) sd_qrencode.error = "libqrencode.so.4 lacks QRcode_encodeString8bit or QRcode_free";
}

sd_qr_code *sd_qr_encode(const char *text, const char **error) {
    pthread_once(&sd_qrencode_once, sd_qrencode_load);
    if (sd_qrencode.error) {
        *error = sd_qrencode.error;
        return NULL;
    }
    QRcode *drawn = sd_qrencode.encode(text, 0, QR_ECLEVEL_M);
    if (!drawn) {
        *error = errno == ERANGE ? "the text is too long for a QR code" : "libqrencode could not draw the code";
        return NULL;
    }
    sd_qr_code *code = malloc(sizeof *code);
    size_t count = (size_t)drawn->width * (size_t)drawn->width;
    unsigned char *modules = code ? malloc(count) : NULL;
    if (!code || !modules) {
        free(code);
        sd_qrencode.release(drawn);
        *error = "out of memory";
        return NULL;
    }
    // libqrencode's bytes carry what each module is in their upper bits; the lowest is dark or light.
    for (size_t index = 0; index < count; index++) modules[index] = drawn->data[index] & 1;
    code->width = drawn->width;
    code->modules = modules;
    sd_qrencode.release(drawn);
    return code;
}

void sd_qr_free(sd_qr_code *code) {
    if (!code) return;
    free(code->modules);
    free(code);
}
