/* The C core under AddressSanitizer and UndefinedBehaviorSanitizer (scripts/sanitize-c-core.sh):
   the pattern functions against Lua's own on generated cases, then a policy that drives the
   calendar and the matcher to their limits through a real host. Exits non-zero on any difference
   or failure; the sanitizers abort on any fault they find. */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stackday_lua_host.h"

static char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return NULL;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    *length = fread(text, 1, (size_t)size, file);
    text[*length] = 0;
    fclose(file);
    return text;
}

static int differential(const char *script, long long seed, long long cases) {
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    if (luaL_loadfile(L, script) != LUA_OK) {
        fprintf(stderr, "%s\n", lua_tostring(L, -1));
        return 1;
    }
    sd_push_matcher(L);
    lua_pushinteger(L, seed);
    lua_pushinteger(L, cases);
    if (lua_pcall(L, 3, 1, 0) != LUA_OK) {
        fprintf(stderr, "differential: %s\n", lua_tostring(L, -1));
        return 1;
    }
    const char *report = lua_tostring(L, -1);
    printf("differential: %s\n", report);
    int failed = strstr(report, " 0 differences") == NULL;
    lua_close(L);
    return failed;
}

static int hosted(const char *prelude_path, const char *policy_path) {
    size_t prelude_length, policy_length;
    char *prelude = read_file(prelude_path, &prelude_length);
    char *policy = read_file(policy_path, &policy_length);
    if (prelude == NULL || policy == NULL) {
        fprintf(stderr, "cannot read %s or %s\n", prelude_path, policy_path);
        return 1;
    }
    sd_error error = {0, NULL};
    sd_host *host = sd_host_new(prelude, prelude_length, &error);
    if (host == NULL) {
        fprintf(stderr, "host: %s\n", error.message ? error.message : "?");
        return 1;
    }
    sd_host_set_budgets(host, 2000000000LL, (size_t)256 << 20);
    int reference = sd_load_policy(host, policy, policy_length, "=limits.lua", &error);
    int failed = reference == 0;
    if (failed) {
        fprintf(stderr, "policy: %s\n", error.message ? error.message : "?");
    } else {
        int binding = sd_bind(host, reference, NULL, 0, 20000, 1.0, "", &error);
        unsigned char due[400];
        sd_days days;
        memset(&days, 0, sizeof days);
        days.binding = binding;
        days.first_ordinal = 20000;
        days.count = 400;
        days.due_out = due;
        if (binding == 0 || sd_schedule(host, &days, &error) != 0) {
            fprintf(stderr, "schedule: %s\n", error.message ? error.message : "?");
            failed = 1;
        } else {
            printf("hosted: the limits policy loaded and answered 400 days\n");
        }
    }
    sd_error_clear(&error);
    sd_host_free(host);
    free(prelude);
    free(policy);
    return failed;
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: driver DIFFERENTIAL.lua SEED CASES PRELUDE.lua LIMITS.lua\n");
        return 64;
    }
    int failed = differential(argv[1], atoll(argv[2]), atoll(argv[3]));
    failed |= hosted(argv[4], argv[5]);
    return failed;
}
