// swift-tools-version: 6.2
import PackageDescription

/// Every target is built in the Swift 6 language mode (complete concurrency checking).
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "photobooth",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "photobooth", targets: ["photobooth"]),
        .executable(name: "photobooth-bench", targets: ["photobooth-bench"]),
        // The modules the fuzz targets build on (fuzz/Package.swift builds them with libFuzzer
        // and the address sanitizer, apart from this package's own build).
        .library(name: "BoothCore", targets: ["BoothCore"]),
        .library(name: "BoothImaging", targets: ["BoothImaging"]),
        .library(name: "BoothScreen", targets: ["BoothScreen"]),
        .library(name: "BoothDevices", targets: ["BoothDevices"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.0"),
        // Hummingbird's own foundations, which the web module also names directly.
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.3.0"),
        // The conversion between NIO's HTTP/1 parts and Swift's HTTP types, which the gallery's
        // connection sets up itself (Hummingbird uses it too).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.20.0"),
        // The event's bucket: Signature V4 over swift-crypto's HMAC/SHA-256, HTTP through
        // AsyncHTTPClient (TLS with the system's trust store). No S3 SDK is among our packages.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.25.0"),
        // File descriptors and errno as types: `FileDescriptor` (open, read, write, close, each
        // retried on EINTR) and `Errno`.
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        // V4L2: ioctl numbers and fourcc codes computed by the C compiler, libv4l2 behind fixed
        // arguments.
        .target(name: "CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        // libjpeg's own API (libjpeg62-turbo), for what TurboJPEG 2.1 cannot ask: restart
        // markers after every row of MCUs, so that the simulated camera encodes only the rows
        // that move.
        .target(name: "CJPEGRows", linkerSettings: [.linkedLibrary("jpeg")]),
        .systemLibrary(name: "CGPIOD", pkgConfig: "libgpiod", providers: [.apt(["libgpiod-dev"])]),
        .systemLibrary(name: "CLinuxFB"),
        // libcamera (Debian's libcamera-dev): the Raspberry Pi's camera modules, through a
        // small C face of its C++ API (CLibcameraShim).
        .systemLibrary(name: "CLibcamera", pkgConfig: "libcamera", providers: [.apt(["libcamera-dev"])]),
        .target(name: "CLibcameraShim", dependencies: ["CLibcamera"]),
        // ALSA (Debian's libasound2-dev): the booth's sounds; a C file silences libasound's
        // own messages, which needs a variadic function.
        .target(name: "CALSA", linkerSettings: [.linkedLibrary("asound")]),
        // libdrm: the screen through kernel modesetting (atomic commits, planes, page flips).
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        // What Swift's Glibc module leaves out: pthread_setname_np and malloc_trim.
        .systemLibrary(name: "CGlibcExtensions"),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // libpng's simplified API: a layout's overlay and background pictures.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"])]),
        // libcups (libcups2-dev has no pkg-config file): IPP requests to the CUPS server.
        .systemLibrary(name: "CCUPS", providers: [.apt(["libcups2-dev"])]),
        .target(name: "BoothCore", swiftSettings: strictSettings),
        // What BoothCore may not do, being pure: the system calls its users share (the monotonic
        // clock's reading, thread priority, retrying on EINTR, giving freed memory back) and the
        // one way to own a thread.
        .target(
            name: "BoothSystem",
            dependencies: ["BoothCore", "CGlibcExtensions", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BoothImaging",
            dependencies: ["BoothCore", "CTurboJPEG", "CJPEGRows", "CQRencode", "CPNG"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BoothStore",
            dependencies: [
                "BoothCore",
                "BoothSystem",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // What the booth shows, drawn from values: the painter and its layouts, canvas, FreeType
        // text, the gallery's screens, render scheduling, and the off-screen mirror for the web.
        .target(
            name: "BoothScreen",
            dependencies: [
                "BoothCore",
                "BoothSystem",
                "BoothImaging",
                "CFreeType",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Every kind of picture beyond the single shot: layouts (YAML files and the built-in
        // ones), composition of strips and collages, animations. Never on the capture path.
        .target(
            name: "BoothPictures",
            dependencies: ["BoothCore", "BoothImaging", "BoothScreen", .product(name: "Yams", package: "Yams")],
            // Optimised in debug builds too: its pixel loops (palettes, dithering, LZW) run
            // some 30 times slower unoptimised, and the tests' booths and GIFs would take the
            // cores from every other test.
            swiftSettings: strictSettings + [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        .target(
            name: "BoothDevices",
            dependencies: [
                "BoothCore",
                "BoothSystem",
                "BoothImaging",
                "CV4L2",
                "CGPIOD",
                "CLinuxFB",
                "CDRM",
                "CLibcameraShim",
                "CALSA",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BoothWeb",
            dependencies: [
                "BoothCore",
                "BoothSystem",
                "BoothStore",
                // Originals leave with their name and time spliced in.
                "BoothImaging",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                // The guests' deletion links are signed with HMAC-SHA256.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The pages' Mustache templates, compiled into the binary (`PackageResources`): the
            // package installs the binary alone, with no resource bundle beside it.
            resources: [.embedInCode("Templates")],
            swiftSettings: strictSettings
        ),
        // The event's bucket: the S3 client (Signature V4) and the replication worker.
        .target(
            name: "BoothSync",
            dependencies: [
                "BoothCore",
                "BoothSystem",
                "BoothStore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Printing through CUPS: the page of each request, the print thread that sends the
        // catalog's print queue to CUPS and follows each job to its end, and the printer's state.
        .target(
            name: "BoothPrint",
            dependencies: [
                "BoothCore", "BoothSystem", "BoothStore", "BoothImaging", "BoothPictures", "CCUPS",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BoothService",
            dependencies: [
                "BoothCore",
                "BoothSystem",
                "BoothImaging",
                "BoothStore",
                "BoothScreen",
                "BoothPictures",
                "BoothDevices",
                "BoothWeb",
                "BoothSync",
                "BoothPrint",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "photobooth",
            dependencies: [
                "BoothService",
                "BoothCore",
                "BoothImaging",
                "BoothStore",
                // The devices' own types are the types of some options (--shutter-bias).
                "BoothDevices",
                // doctor runs its checks on a thread of its own.
                "BoothSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "photobooth-bench",
            dependencies: [
                "BoothCore", "BoothImaging", "BoothStore", "BoothScreen", "BoothDevices", "BoothPictures", "BoothPrint",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "BoothCoreTests", dependencies: ["BoothCore", "FuzzRegressions"], swiftSettings: strictSettings),
        .testTarget(
            name: "BoothSystemTests", dependencies: ["BoothSystem", "BoothCore", .product(name: "SystemPackage", package: "swift-system")],
            swiftSettings: strictSettings),
        .testTarget(
            name: "BoothImagingTests",
            dependencies: ["BoothImaging", "BoothCore", "StoreFixture"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BoothStoreTests",
            dependencies: [
                "BoothStore", "BoothImaging", "BoothCore", "FuzzRegressions", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        // Pseudo-terminals, so the serial keypad's tests run it on a real terminal device.
        .target(name: "CPseudoTerminal", path: "Tests/CPseudoTerminal"),
        // posix_spawn's closefrom, so that a test's child inherits only the descriptors it is given.
        .target(name: "CSpawn", path: "Tests/CSpawn"),
        // The inputs of fuzz/regressions/, for the tests of the parsers they broke.
        .target(name: "FuzzRegressions", path: "Tests/FuzzRegressions", swiftSettings: strictSettings),
        .testTarget(
            name: "BoothDevicesTests",
            dependencies: [
                "BoothDevices", "BoothImaging", "BoothSystem", "BoothCore", "CLinuxFB", "CPseudoTerminal", "FuzzRegressions",
                .product(name: "Logging", package: "swift-log"), .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "BoothScreenTests",
            dependencies: ["BoothScreen", "BoothCore", "BoothImaging", "StoreFixture", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSettings),
        .testTarget(
            name: "BoothPicturesTests",
            dependencies: [
                "BoothPictures", "BoothImaging", "BoothScreen", "BoothCore", "StoreFixture", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "BoothWebTests",
            dependencies: [
                "BoothWeb", "BoothCore", "BoothImaging", "BoothStore", "BoothPictures", "StoreFixture",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // The connection's handlers, on event loops whose time the tests advance and on
                // channels without sockets.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The OpenAPI test reads docs/openapi.yaml.
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSettings),
        // What several test targets share: real S3-compatible stores (SeaweedFS, moto) on loopback,
        // the test lanes and seeds, a log that keeps its lines.
        .target(
            name: "StoreFixture", dependencies: ["BoothSync", .product(name: "Logging", package: "swift-log")], path: "Tests/StoreFixture",
            swiftSettings: strictSettings),
        .testTarget(
            name: "BoothSyncTests",
            dependencies: [
                "BoothSync", "BoothCore", "BoothStore", "BoothImaging", "FuzzRegressions", "StoreFixture",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["SignatureV4Vectors"], swiftSettings: strictSettings),
        .testTarget(
            name: "BoothServiceTests",
            dependencies: [
                "BoothService", "BoothCore", "BoothSystem", "BoothImaging", "BoothStore", "BoothScreen", "BoothDevices", "BoothSync",
                "BoothWeb", "BoothPictures", "BoothPrint", "StoreFixture",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "PhotoboothEndToEndTests",
            // The full lane (PHOTOBOOTH_FULL_TESTS=1, as scripts/test runs it): the real binary,
            // driven by pipes and by a real serial keypad on a pseudo-terminal; the event's sync
            // against real S3 servers (Bucket/); the stress campaigns.
            dependencies: [
                "photobooth", "BoothCore", "BoothImaging", "BoothStore", "BoothSync", "BoothPictures", "CPseudoTerminal", "CSpawn", "StoreFixture",
                // The key a guest's QR code carries, made from the library's secret.
                "BoothWeb",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
    ],
    // libcamera's headers need C++17 (std::optional, structured bindings).
    cxxLanguageStandard: .cxx17
)
