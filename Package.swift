// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "StackDay",
    products: [
        .library(name: "StackDay", targets: ["StackDay"]),
        .library(name: "StackDaySQLite", targets: ["StackDaySQLite"]),
        .library(name: "StackDayLua", targets: ["StackDayLua"]),
        .library(name: "StackDayExchange", targets: ["StackDayExchange"]),
        .library(name: "StackDayEngine", targets: ["StackDayEngine"]),
        .library(name: "StackDayApplication", targets: ["StackDayApplication"]),
        .library(name: "StackDayServer", targets: ["StackDayServer"]),
        .library(name: "StackDayPostgres", targets: ["StackDayPostgres"]),
        .library(name: "StackDaySync", targets: ["StackDaySync"]),
        .executable(name: "stackday", targets: ["stackday"]),
    ],
    targets: [
        // Lua 5.4 from Debian's liblua5.4-dev, linked from its static archive: the VM's own calls
        // stay direct (no PLT) and no process loads liblua5.4.so at start.
        .systemLibrary(
            name: "CLua",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // libsodium's header (Debian: libsodium-dev) and a loader that opens libsodium.so.23 the
        // first time a password is hashed or a webhook signed.
        .target(name: "CSodium"),
        // libcrypto's headers (Debian: libssl-dev) and a loader that opens libcrypto.so.3 the
        // first time a Web Push message is made or its key generated.
        .target(name: "CCrypto"),
        // libpq's header (Debian: libpq-dev) and a loader that opens libpq.so.5 on the first
        // connection, so that binaries which never reach PostgreSQL do not load it at start.
        .target(name: "CPostgres"),
        // libqrencode's header (Debian: libqrencode-dev) and a loader that opens libqrencode.so.4
        // the first time a pairing QR code is drawn.
        .target(name: "CQRencode"),
        // libmicrohttpd's header (Debian: libmicrohttpd-dev) and a request layer over it; the
        // library is opened when a server starts.
        .target(name: "CHTTP", dependencies: ["CTLS"]),
        // GnuTLS's headers (Debian: libgnutls28-dev, which libmicrohttpd-dev brings) and a loader
        // that opens libgnutls.so.30 the first time TLS is used: the server's certificate,
        // reloaded in place, and the sync and webhook client's TLS session.
        .target(name: "CTLS"),
        // SD_TEST_HOOKS: debug (test) builds only, the test-only calendar.test_spin a policy can
        // reach when the runner's environment asks for it (STACKDAY_TEST_SPIN=1).
        .target(name: "CLuaHost", dependencies: ["CLua"], cSettings: [.define("SD_TEST_HOOKS", .when(configuration: .debug))],
                linkerSettings: [.linkedLibrary(":liblua5.4.a"), .linkedLibrary("m")]),
        .target(name: "StackDay"),
        .executableTarget(name: "PolicyEmbedder"),
        .plugin(name: "EmbedPolicies", capability: .buildTool(), dependencies: ["PolicyEmbedder"]),
        .target(name: "StackDayLua", dependencies: ["StackDay", "CLuaHost"], exclude: ["Lua"], plugins: ["EmbedPolicies"]),
        .target(name: "StackDaySQL", dependencies: ["StackDay"]),
        .target(name: "StackDaySQLite", dependencies: ["StackDay", "StackDaySQL", "CSQLite"]),
        .target(name: "StackDayExchange", dependencies: ["StackDay"]),
        .target(name: "StackDayPostgres", dependencies: ["StackDay", "StackDaySQL", "CPostgres"]),
        .target(name: "StackDayEngine", dependencies: ["StackDay"]),
        // A device's side of sync: the client and its HTTP transport.
        // An HTTP/1.1 client over a socket or GnuTLS: what sync and the server's webhook sender send with.
        .target(name: "StackDayHTTPClient", dependencies: ["CTLS"]),
        .target(name: "StackDaySync", dependencies: ["StackDay", "StackDayHTTPClient"]),
        // Requests into use-case input, results into views: what the command line and the server share.
        .target(name: "StackDayApplication", dependencies: ["StackDay", "StackDayExchange"]),
        .target(name: "StackDayServer", dependencies: ["StackDay", "StackDayApplication", "StackDayEngine", "StackDayExchange", "StackDayLua", "StackDayHTTPClient", "CHTTP", "CTLS", "CSodium", "CQRencode", "CCrypto"],
                exclude: ["Assets"], plugins: ["EmbedPolicies"]),
        .target(name: "StackDayContract", dependencies: ["StackDay"]),
        .target(name: "StackDayTestSupport", dependencies: ["CSQLite", "StackDay"]),
        // The shipped command line (`make install`, `make bench`: STACKDAY_STATIC=1 with
        // `-c release --static-swift-stdlib`) is linked for what every process does before `main`
        // (docs/performance.md, "What a process does before main"):
        // - exporting no symbols (Linker/exports.map): nothing loads it as a library, and the
        //   loader has no 8,800-name table to search;
        // - the C++ runtime and libgcc from their static archives (Linker/libstdc++.so is a linker
        //   script found before the system's): no libstdc++.so.6 and libgcc_s.so.1 to load and bind.
        // It stays position-independent: the same binary serves the network and runs users'
        // scripts, and its own image keeps a random address (a fixed one was measured, not taken).
        // Debug builds load the Swift runtime's shared libraries, which bring their own C++ runtime.
        .executableTarget(
            name: "stackday",
            dependencies: ["StackDay", "StackDayApplication", "StackDaySQLite", "StackDayPostgres", "StackDayLua", "StackDayExchange", "StackDayServer", "StackDaySync"],
            exclude: ["Linker"],
            linkerSettings: Context.environment["STACKDAY_STATIC"] == "1" ? [
                .unsafeFlags(["-Xclang-linker", "-static-libgcc",
                              "-Xlinker", "--version-script=\(Context.packageDirectory)/Sources/stackday/Linker/exports.map",
                              "-L\(Context.packageDirectory)/Sources/stackday/Linker"]),
            ] : []
        ),
        .executableTarget(
            name: "stackday-bench",
            dependencies: ["StackDay", "StackDayLua", "CLua", "StackDaySQLite", "StackDayPostgres", "StackDaySync", "StackDayExchange", "StackDayTestSupport"],
            path: "Benchmarks/StackDayBench"
        ),
        .executableTarget(name: "StoreExerciser", dependencies: ["StackDay", "StackDaySQLite", "StackDayPostgres"]),
        .testTarget(name: "CLuaTests", dependencies: ["CLua"]),
        .testTarget(name: "StackDayTests", dependencies: ["StackDay", "StackDayContract", "StackDayTestSupport"]),
        .testTarget(name: "StackDayLuaTests", dependencies: ["StackDayLua", "CLuaHost", "CLua", "StackDayTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "StackDayPostgresTests", dependencies: ["StackDayPostgres", "StackDayContract", "StackDayTestSupport", "StoreExerciser"]),
        .testTarget(name: "StackDaySQLiteTests", dependencies: ["StackDaySQLite", "StackDayContract", "StackDayTestSupport", "StoreExerciser"]),
        .testTarget(name: "StackDayExchangeTests", dependencies: ["StackDayExchange", "StackDayTestSupport"]),
        .testTarget(name: "StackDayApplicationTests", dependencies: ["StackDayApplication", "StackDay", "StackDayLua", "StackDayTestSupport"]),
        .testTarget(name: "StackDaySQLTests", dependencies: ["StackDaySQL", "StackDay"]),
        .testTarget(name: "StackDayServerTests", dependencies: ["StackDayServer", "StackDay", "StackDayExchange", "StackDayEngine", "StackDayLua", "StackDaySQLite", "StackDayHTTPClient", "StackDayTestSupport"]),
        .testTarget(name: "StackDayEngineTests", dependencies: ["StackDayEngine", "StackDayLua", "StackDaySQLite", "StackDayPostgres", "StackDayTestSupport"]),
        .testTarget(name: "StackDaySyncTests", dependencies: ["StackDaySync", "StackDay", "StackDayLua", "StackDaySQLite", "StackDayPostgres", "StackDayTestSupport"]),
        .testTarget(name: "StackdayCLITests", dependencies: ["stackday", "StackDay", "StackDayTestSupport"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
