import BoothSystem
import Foundation
import Glibc
import SystemPackage

/// File operations that survive a crash or a power cut once they return, and that never replace
/// an existing file. One function per system call, each throwing a ``LibraryError`` that names
/// the file (`FileDescriptor` and ``SystemCall`` retry on `EINTR`).
enum DurableFile {
    /// Writes `data` to `url` so that after any crash either the complete file is there or
    /// nothing is: write a temporary file in the same folder, `fsync` it, rename it into place,
    /// `fsync` the folder. Missing folders are created the same durable way.
    static func write(_ data: Data, to url: URL, temporaryName: String) throws(LibraryError) {
        try write([(data, url, temporaryName)])
    }

    /// Writes new files into one folder the same way, with one sync of the folder for all of
    /// them (a photo and its sidecar). When it throws, none of them was renamed into place.
    static func write(_ files: [(data: Data, url: URL, temporaryName: String)]) throws(LibraryError) {
        guard let folder = files.first?.url.deletingLastPathComponent() else { return }
        try makeFolders(folder)
        var written: [(temporary: String, url: URL)] = []
        do throws(LibraryError) {
            for file in files {
                let temporary = folder.appendingPathComponent(file.temporaryName).path
                try writeNewFile(file.data, at: temporary)
                written.append((temporary, file.url))
                guard !FileManager.default.fileExists(atPath: file.url.path) else {
                    throw LibraryError.file("save", file.url.path, errno: EEXIST)
                }
            }
        } catch {
            for file in written { _ = unlink(file.temporary) }
            throw error
        }
        for (index, file) in written.enumerated() where rename(file.temporary, file.url.path) != 0 {
            let code = errno
            for renamed in written[..<index] { _ = unlink(renamed.url.path) }
            for pending in written[index...] { _ = unlink(pending.temporary) }
            throw LibraryError.file("rename into", file.url.path, errno: code)
        }
        try syncFolder(folder)
    }

    /// Replaces `url` (or creates it) with `data` atomically, through a temporary file and a
    /// rename, then syncs the file and its folder: after any crash `url` holds the old content
    /// or the new, complete. For a file that changes (a photo's sidecar).
    static func replace(_ url: URL, with data: Data, temporaryName: String) throws(LibraryError) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(temporaryName)
        _ = unlink(temporary.path)
        try writeNewFile(data, at: temporary.path)
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            _ = unlink(temporary.path)
            throw LibraryError.file("rename into", url.path, errno: code)
        }
        try syncFolder(folder)
    }

    /// Replaces `url` with `data` atomically, without waiting for the disk: for copies that can
    /// always be made again from elsewhere (the sidecars of photos the catalog already has).
    /// ``syncEverything()`` afterwards makes them durable in one go.
    static func replaceWithoutSync(_ url: URL, with data: Data, temporaryName: String) throws(LibraryError) {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(temporaryName)
        _ = unlink(temporary.path)
        let descriptor = try createNew(temporary.path)
        var failure: LibraryError?
        do throws(LibraryError) {
            try writeAll(data, to: descriptor, path: temporary.path)
        } catch {
            failure = error
        }
        try? descriptor.close()
        if failure == nil, rename(temporary.path, url.path) != 0 {
            failure = LibraryError.file("rename into", url.path, errno: errno)
        }
        if let failure {
            _ = unlink(temporary.path)
            throw failure
        }
    }

    /// Writes every file system's pending data to disk. The corresponding C function is `sync`.
    static func syncEverything() {
        Glibc.sync()
    }

    /// Creates `folder` and its missing parents, syncing each parent so the new entries persist.
    static func makeFolders(_ folder: URL) throws(LibraryError) {
        var missing: [URL] = []
        var current = folder
        while !FileManager.default.fileExists(atPath: current.path) && current.path != "/" {
            missing.append(current)
            current = current.deletingLastPathComponent()
        }
        for created in missing.reversed() {
            if mkdir(created.path, 0o755) != 0 {
                let code = errno
                if code != EEXIST { throw LibraryError.file("create the folder", created.path, errno: code) }
            }
            try syncFolder(created.deletingLastPathComponent())
        }
    }

    /// Makes the entries of `folder` (new names, renames) durable. The corresponding C function is
    /// `fsync` on the folder.
    static func syncFolder(_ folder: URL) throws(LibraryError) {
        let descriptor = try open(folder.path, options: [.directory, .closeOnExec])
        defer { try? descriptor.close() }
        try sync(descriptor, path: folder.path)
    }

    /// Writes `data` to a new file `destination`, failing with `EEXIST` rather than replacing a
    /// file that is there; the file is synced before returning. `permissions` apply as the
    /// process's umask leaves them.
    static func write(_ data: Data, toNew destination: URL, permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead])
        throws(LibraryError)
    {
        try writeNewFile(data, at: destination.path, permissions: permissions)
    }

    /// The whole content of a file.
    static func read(_ url: URL) throws(LibraryError) -> Data {
        let descriptor = try open(url.path, options: .closeOnExec)
        defer { try? descriptor.close() }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do {
                count = try Errno.catching { try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) } }
            } catch {
                throw LibraryError.file("read", url.path, errno: error)
            }
            if count == 0 { return data }
            data.append(contentsOf: chunk[0..<count])
        }
    }

    /// The name of ``probe(_:)``'s test file.
    static let probeName = ".storage-probe.tmp"

    /// Writes 1 MiB to a new hidden temporary file in `folder`, syncs it and removes it: whether
    /// the folder takes a photo's worth of data, where free space alone cannot tell (a quota, a
    /// failing card). A probe a crash leaves behind is removed at the next start like any
    /// temporary file.
    static func probe(_ folder: URL) throws(LibraryError) {
        let path = folder.appendingPathComponent(probeName).path
        _ = unlink(path)
        try writeNewFile(Data(count: 1 << 20), at: path)
        try remove(URL(fileURLWithPath: path))
    }

    /// The regular files under `folder`, at any depth, as paths relative to it, unsorted; empty
    /// when the folder does not exist. Reads the folders with `readdir`, which names each entry's
    /// type: Foundation's enumerator asks for it with a `stat` per file, seconds for 10,000 photos.
    static func regularFiles(under folder: URL) throws(LibraryError) -> [String] {
        var files: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let path = relative.isEmpty ? folder.path : folder.path + "/" + relative
            guard let stream = opendir(path) else {
                let code = errno
                if code == ENOENT && relative.isEmpty { return [] }
                throw LibraryError.file("list", path, errno: code)
            }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard name != "." && name != ".." else { continue }
                let child = relative.isEmpty ? name : relative + "/" + name
                var type = Int(entry.pointee.d_type)
                if type == DT_UNKNOWN {
                    // Some file systems do not fill in the type; `lstat` does.
                    var status = stat()
                    guard lstat(path + "/" + name, &status) == 0 else { continue }
                    type = (status.st_mode & S_IFMT) == S_IFDIR ? DT_DIR : (status.st_mode & S_IFMT) == S_IFREG ? DT_REG : DT_UNKNOWN
                }
                if type == DT_DIR {
                    pending.append(child)
                } else if type == DT_REG {
                    files.append(child)
                }
            }
        }
        return files
    }

    /// Creates `path` (failing if it exists), writes `data` and syncs it; on any failure the
    /// partial file is removed. The descriptor is closed exactly once either way.
    private static func writeNewFile(
        _ data: Data, at path: String, permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]
    ) throws(LibraryError) {
        let descriptor = try createNew(path, permissions: permissions)
        var failure: LibraryError?
        do {
            try writeAll(data, to: descriptor, path: path)
            try sync(descriptor, path: path)
        } catch {
            failure = error
        }
        do {
            try Errno.catching { try descriptor.close() }
        } catch  where error != .interrupted {
            // On Linux the descriptor is closed even when close fails; EINTR loses nothing written.
            failure = failure ?? LibraryError.file("close", path, errno: error)
        } catch {}
        if let failure {
            _ = unlink(path)
            throw failure
        }
    }

    /// Moves `source` to `destination` (same file system), creating folders, never replacing.
    static func move(_ source: URL, to destination: URL) throws(LibraryError) {
        try makeFolders(destination.deletingLastPathComponent())
        guard !FileManager.default.fileExists(atPath: destination.path) else {
            throw LibraryError.file("move a file to", destination.path, errno: EEXIST)
        }
        guard rename(source.path, destination.path) == 0 else {
            let code = errno
            throw LibraryError.file("move a file to", destination.path, errno: code)
        }
        try syncFolder(destination.deletingLastPathComponent())
        try syncFolder(source.deletingLastPathComponent())
    }

    /// Removes a file; a file that is already gone is fine.
    static func remove(_ url: URL) throws(LibraryError) {
        if unlink(url.path) != 0 {
            let code = errno
            if code != ENOENT { throw LibraryError.file("remove", url.path, errno: code) }
        }
    }

    // MARK: System calls

    /// Opens `path` for reading. The corresponding C function is `open`.
    private static func open(_ path: String, options: FileDescriptor.OpenOptions) throws(LibraryError) -> FileDescriptor {
        do {
            return try Errno.catching { try FileDescriptor.open(FilePath(path), .readOnly, options: options) }
        } catch {
            throw LibraryError.file("open", path, errno: error)
        }
    }

    /// Creates `path` for writing, failing if it exists. The corresponding C function is `open`
    /// with `O_CREAT | O_EXCL`.
    private static func createNew(
        _ path: String, permissions: FilePermissions = [.ownerReadWrite, .groupRead, .otherRead]
    ) throws(LibraryError) -> FileDescriptor {
        do {
            return try Errno.catching {
                try FileDescriptor.open(
                    FilePath(path), .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec], permissions: permissions)
            }
        } catch {
            throw LibraryError.file("open", path, errno: error)
        }
    }

    /// The corresponding C function is `write`, repeated until every byte is written.
    private static func writeAll(_ data: Data, to descriptor: FileDescriptor, path: String) throws(LibraryError) {
        do {
            try Errno.catching { try descriptor.writeAll(data) }
        } catch {
            throw LibraryError.file("write", path, errno: error)
        }
    }

    /// The corresponding C function is `fsync`.
    private static func sync(_ descriptor: FileDescriptor, path: String) throws(LibraryError) {
        do {
            try SystemCall.retrying { fsync(descriptor.rawValue) }
        } catch {
            throw LibraryError.file("sync", path, errno: error)
        }
    }
}
