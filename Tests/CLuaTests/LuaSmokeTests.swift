import CLua
import Testing

@Suite("CLua module")
struct LuaSmokeTests {
    @Test("a state opens, runs a chunk in a protected call and returns its value")
    func runChunk() throws {
        let state = try #require(luaL_newstate())
        defer { lua_close(state) }
        luaL_openlibs(state)
        let source = "local t = {} for i = 1, 10 do t[#t + 1] = i * i end return t[10] + #t"
        #expect(stackday_luaL_loadbufferx(state, source, source.utf8.count, "=smoke", "t") == LUA_OK)
        #expect(stackday_lua_pcall(state, 0, 1, 0) == LUA_OK)
        #expect(stackday_lua_tointeger(state, -1) == 110)
        stackday_lua_pop(state, 1)
    }

    @Test("an error raised by a chunk comes back from lua_pcall instead of unwinding")
    func errorIsCaught() throws {
        let state = try #require(luaL_newstate())
        defer { lua_close(state) }
        luaL_openlibs(state)
        let source = "error('boom')"
        #expect(stackday_luaL_loadbufferx(state, source, source.utf8.count, "=smoke", "t") == LUA_OK)
        #expect(stackday_lua_pcall(state, 0, 0, 0) == LUA_ERRRUN)
        let message = String(cString: try #require(stackday_lua_tostring(state, -1)))
        #expect(message == "smoke:1: boom")
    }
}
