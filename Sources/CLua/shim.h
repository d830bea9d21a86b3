#ifndef STACKDAY_CLUA_SHIM_H
#define STACKDAY_CLUA_SHIM_H

#include <lua5.4/lua.h>
#include <lua5.4/lualib.h>
#include <lua5.4/lauxlib.h>

/* Swift cannot import Lua's function-like macros; these wrap the ones the host uses. */

static inline int stackday_lua_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcall(L, nargs, nresults, msgh);
}
static inline void stackday_lua_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void stackday_lua_newtable(lua_State *L) { lua_newtable(L); }
static inline lua_Number stackday_lua_tonumber(lua_State *L, int index) { return lua_tonumber(L, index); }
static inline lua_Integer stackday_lua_tointeger(lua_State *L, int index) { return lua_tointeger(L, index); }
static inline const char *stackday_lua_tostring(lua_State *L, int index) { return lua_tostring(L, index); }
static inline int stackday_lua_isnil(lua_State *L, int index) { return lua_isnil(L, index); }
static inline int stackday_lua_istable(lua_State *L, int index) { return lua_istable(L, index); }
static inline int stackday_lua_isfunction(lua_State *L, int index) { return lua_isfunction(L, index); }
static inline int stackday_lua_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline void stackday_lua_pushcfunction(lua_State *L, lua_CFunction f) { lua_pushcfunction(L, f); }
static inline void stackday_lua_remove(lua_State *L, int index) { lua_remove(L, index); }
static inline void stackday_lua_insert(lua_State *L, int index) { lua_insert(L, index); }
static inline void stackday_lua_replace(lua_State *L, int index) { lua_replace(L, index); }
static inline int stackday_lua_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int stackday_luaL_loadbufferx(lua_State *L, const char *buffer, size_t size, const char *name, const char *mode) {
    return luaL_loadbufferx(L, buffer, size, name, mode);
}

#endif
