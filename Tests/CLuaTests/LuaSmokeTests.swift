import Foundation
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

/// Every Lua source the package ships: the built-in policies and the host's own (the prelude).
let shippedLuaFiles: [URL] = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return ["Policies", "Sources/StackDayLua/Lua"].flatMap { folder -> [URL] in
        let url = root.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(".lua") }.sorted().map { url.appendingPathComponent($0) }
    }
}()

@Suite("shipped Lua sources")
struct ShippedLuaTests {
    @Test("the prelude and the built-in policies are all found")
    func found() {
        let names = shippedLuaFiles.map(\.lastPathComponent)
        #expect(names.contains("prelude.lua"))
        #expect(names.contains("rrule.lua") && names.contains("daily.lua"))
        #expect(names.count >= 17)
    }

    @Test("each compiles as Lua 5.4 text (as luac5.4 -p checks)", arguments: shippedLuaFiles)
    func compiles(file: URL) throws {
        let source = try String(contentsOf: file, encoding: .utf8)
        let state = try #require(luaL_newstate())
        defer { lua_close(state) }
        let status = stackday_luaL_loadbufferx(state, source, source.utf8.count, "@" + file.lastPathComponent, "t")
        let message = status == LUA_OK ? "" : String(cString: stackday_lua_tostring(state, -1))
        #expect(status == LUA_OK, "\(message)")
    }
}
