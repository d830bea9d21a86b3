#include "http_internal.h"

sdh_library mhd;
static pthread_once_t mhd_once = PTHREAD_ONCE_INIT;
static char mhd_error[512];

static void mhd_load(void) {
    void *handle = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        snprintf(mhd_error, sizeof mhd_error, "cannot load libmicrohttpd (apt-get install libmicrohttpd12): %s", reason ? reason : "unknown error");
        mhd.error = mhd_error;
        return;
    }
#define SD_LOAD(field, name) \
    if (!(mhd.field = (__typeof__(mhd.field))dlsym(handle, #name))) { mhd.error = "libmicrohttpd.so.12 lacks " #name; return; }
    SD_LOAD(start_daemon, MHD_start_daemon)
    SD_LOAD(stop_daemon, MHD_stop_daemon)
    SD_LOAD(quiesce_daemon, MHD_quiesce_daemon)
    SD_LOAD(get_daemon_info, MHD_get_daemon_info)
    SD_LOAD(lookup_connection_value, MHD_lookup_connection_value)
    SD_LOAD(get_connection_values, MHD_get_connection_values)
    SD_LOAD(get_connection_values_n, MHD_get_connection_values_n)
    SD_LOAD(create_response_from_buffer, MHD_create_response_from_buffer)
    SD_LOAD(add_response_header, MHD_add_response_header)
    SD_LOAD(queue_response, MHD_queue_response)
    SD_LOAD(destroy_response, MHD_destroy_response)
    SD_LOAD(suspend_connection, MHD_suspend_connection)
    SD_LOAD(resume_connection, MHD_resume_connection)
    SD_LOAD(get_connection_info, MHD_get_connection_info)
    SD_LOAD(set_connection_option, MHD_set_connection_option)
#undef SD_LOAD
}

const char *sdh_load_library(void) {
    pthread_once(&mhd_once, mhd_load);
    return mhd.error;
}
