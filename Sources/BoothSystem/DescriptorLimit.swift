import Foundation
import SystemPackage

/// The process's limit on open files (`RLIMIT_NOFILE`): the soft limit, which the kernel
/// enforces, and the hard one, up to which a process may raise it itself.
package struct DescriptorLimit: Sendable, Equatable, CustomStringConvertible {
    /// The most descriptors the process may hold open now.
    package var soft: Int
    /// The most it may raise ``soft`` to without privileges.
    package var hard: Int

    /// A limit of `soft` and `hard` descriptors.
    package init(soft: Int, hard: Int) {
        self.soft = soft
        self.hard = hard
    }

    /// The process's limit now. The corresponding C function is `getrlimit`.
    package static func current() throws(Errno) -> DescriptorLimit {
        var limit = rlimit()
        try SystemCall.retrying { getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }
        return DescriptorLimit(soft: Int(clamping: limit.rlim_cur), hard: Int(clamping: limit.rlim_max))
    }

    /// Raises the soft limit to the hard one, or to `most` when the hard one is higher, and
    /// returns the limit as it is then; a soft limit already that high is left as it is.
    ///
    /// systemd gives a service 1,024 descriptors unless its unit says otherwise, with a hard
    /// limit far higher: a server that needs more raises its own (the 1,024 stays the default
    /// only for programs that still use `select`, which this one does not). The corresponding
    /// C function is `setrlimit`.
    package static func raise(upTo most: Int) throws(Errno) -> DescriptorLimit {
        let limit = try current()
        let wanted = min(limit.hard, most)
        guard wanted > limit.soft else { return limit }
        var raised = rlimit(rlim_cur: rlim_t(wanted), rlim_max: rlim_t(clamping: limit.hard))
        if limit.hard == Int.max { raised.rlim_max = .max }  // RLIM_INFINITY
        try SystemCall.retrying { setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) }
        return try current()
    }

    package var description: String {
        "\(soft) (hard limit \(hard == Int.max ? "unlimited" : String(hard)))"
    }
}
