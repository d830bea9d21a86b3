// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "StackDay",
    products: [
        .library(name: "StackDay", targets: ["StackDay"]),
        .executable(name: "stackday", targets: ["stackday"]),
    ],
    targets: [
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        .target(name: "StackDay"),
        .target(name: "StackDayContract", dependencies: ["StackDay"]),
        .executableTarget(name: "stackday", dependencies: ["StackDay"]),
        .testTarget(name: "CLuaTests", dependencies: ["CLua"]),
        .testTarget(name: "StackDayTests", dependencies: ["StackDay", "StackDayContract"]),
        .testTarget(name: "StackdayCLITests", dependencies: ["stackday"]),
    ],
    swiftLanguageModes: [.v6]
)
