import Foundation
import SystemPackage

/// A program the booth runs beside itself, whose standard output it reads through a pipe; its
/// standard error is the booth's (the journal, the serial console). Used where a library may
/// abort the process that hosts it: the booth keeps running when the child dies.
///
/// Every call blocks; a child is run and read from a dedicated thread. A child is ended and
/// waited for when its owner is done with it, never left behind.
package final class ChildProcess {
    package let pid: pid_t
    /// The read end of the child's standard output.
    package let output: FileDescriptor
    private var reaped: Int32?

    /// Starts `executable` with `arguments` (the first is its name); throws when it cannot start.
    package init(executable: String, arguments: [String]) throws(Errno) {
        var ends: [Int32] = [0, 0]
        try SystemCall.retrying { pipe(&ends) }
        // Neither end passes to other children the booth starts (the child's standard output
        // is a copy, made by dup2, which keeps it open across exec).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        // The child starts with no signal blocked or ignored: the booth ignores some (SIGPIPE,
        // SIGHUP, and SIGTERM while it waits for it on a dispatch source), which a child would
        // inherit.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        close(ends[1])
        guard status == 0 else {
            close(ends[0])
            throw Errno(rawValue: status)
        }
        self.pid = pid
        self.output = FileDescriptor(rawValue: ends[0])
    }

    /// Reads exactly `count` bytes into `buffer`; `false` at the end of the output before any
    /// byte of them; throws when the output ends partway or cannot be read.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Bool {
        var done = 0
        while done < buffer.count {
            let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[done...])
            let count = try Errno.catching { try output.read(into: rest) }
            if count == 0 {
                if done == 0 { return false }
                throw Errno.ioError
            }
            done += count
        }
        return true
    }

    /// Ends the child at once (SIGKILL: it holds nothing to save, and the kernel releases its
    /// devices) and waits for it; returns how it ended.
    @discardableResult
    package func stop() -> String {
        if reaped == nil { kill(pid, SIGKILL) }
        return wait()
    }

    /// Waits for the child to end; returns how it ended ("exit status 2", "signal 6").
    @discardableResult
    package func wait() -> String {
        if reaped == nil {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
            reaped = status
            try? output.close()
        }
        let status = reaped ?? 0
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
        return status & 0x7f == 0 ? "exit status \((status >> 8) & 0xff)" : "signal \(status & 0x7f)"
    }

    deinit {
        stop()
    }
}
