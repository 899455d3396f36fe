// swift-tools-version: 6.2
import PackageDescription

// The fuzz targets: one executable per kind of input the booth reads from outside, each built
// with libFuzzer and the address sanitizer by `fuzz/run` (README.md beside this file):
//
//   swift build --package-path fuzz -c release --sanitize=fuzzer --sanitize=address \
//       -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing
//
// The light modules come from the booth's own package. What it parses in its heavy modules
// (the web on Hummingbird, the event sync on AsyncHTTPClient, the library on GRDB, the service
// that needs them all) is compiled here from the same files, through the links in Shared/, into
// modules of their own (SwiftPM allows no second BoothSync in one package graph). Those files
// import no more than Foundation and the light modules, so the fuzz build never compiles
// SwiftNIO, and CI builds and runs every target in minutes.

let settings: [SwiftSetting] = [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]

/// A module of the booth's package, as its product.
func booth(_ name: String) -> Target.Dependency { .product(name: name, package: "photobooth") }

let package = Package(
    name: "photobooth-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "photobooth", path: ".."),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // The parsers of the heavy modules, from their own files (Shared/ links to them).
        .target(name: "SyncReading", dependencies: [booth("BoothCore")], path: "Shared/BoothSync", swiftSettings: settings),
        .target(name: "SidecarReading", dependencies: [booth("BoothCore")], path: "Shared/BoothStore", swiftSettings: settings),
        .target(name: "WebReading", dependencies: [booth("BoothCore")], path: "Shared/BoothWeb", swiftSettings: settings),
        .target(
            name: "ConfigurationReading",
            dependencies: [
                booth("BoothCore"), booth("BoothScreen"), booth("BoothDevices"), "SyncReading",
                .product(name: "Yams", package: "Yams"),
            ],
            path: "Shared/BoothService",
            // The layout that configuration names is loaded by BoothPictures, after the parse.
            exclude: ["Configuration/PictureConfiguration.swift"],
            // Its files import BoothSync for the sync's settings, which SyncReading holds here.
            swiftSettings: settings + [.unsafeFlags(["-module-alias", "BoothSync=SyncReading"])]),

        .target(name: "FuzzSupport", path: "Targets/FuzzSupport", swiftSettings: settings),
        // Camera frames: the capture thread's check, the MJPEG repair, the JPEG segments, the
        // metadata splice, the decodes of the preview and the shot.
        .executableTarget(
            name: "mjpeg", dependencies: ["FuzzSupport", booth("BoothCore"), booth("BoothImaging"), booth("BoothDevices")],
            path: "Targets/mjpeg", swiftSettings: settings),
        // Raw frames (YUYV, RGB from libv4l2's Bayer conversion): the driver's sizes and the
        // buffer's, the checks, the encode and the preview.
        .executableTarget(
            name: "rawframe", dependencies: ["FuzzSupport", booth("BoothCore"), booth("BoothImaging"), booth("BoothDevices")],
            path: "Targets/rawframe", swiftSettings: settings),
        // An animation's GIF: its blocks, the first frame, every frame as the screen plays
        // them, the copy with the picture's XMP.
        .executableTarget(
            name: "gif", dependencies: ["FuzzSupport", booth("BoothCore"), booth("BoothImaging")], path: "Targets/gif",
            swiftSettings: settings),
        // A serial keypad's bytes: the decoder, the state machine's keys, the keypad's echo.
        .executableTarget(
            name: "keypad",
            dependencies: ["FuzzSupport", booth("BoothCore"), booth("BoothScreen"), booth("BoothDevices")],
            path: "Targets/keypad", swiftSettings: settings),
        // The configuration file: YAML, every key and value.
        .executableTarget(
            name: "config", dependencies: ["FuzzSupport", "ConfigurationReading", booth("BoothCore")], path: "Targets/config",
            swiftSettings: settings),
        // HTTP: byte ranges, query strings and forms, Accept-Language, names in search and albums.
        .executableTarget(
            name: "http", dependencies: ["FuzzSupport", "WebReading", booth("BoothCore")], path: "Targets/http", swiftSettings: settings),
        // The event's bucket: ListObjectsV2 and error answers, keys, and the photos' records.
        .executableTarget(
            name: "bucket", dependencies: ["FuzzSupport", "SyncReading", "SidecarReading", booth("BoothCore")], path: "Targets/bucket",
            swiftSettings: settings),
    ]
)
