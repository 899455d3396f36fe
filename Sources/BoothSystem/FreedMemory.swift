import CGlibcExtensions

/// Heap memory the booth has freed, given back to the kernel.
///
/// glibc's malloc keeps what a thread frees in that thread's arena for later allocations, and
/// once a block of several megabytes has been freed it serves blocks of that size from the
/// arenas rather than mapping each afresh. A photo's pictures (its decode at the screen's size,
/// the review picture) are such blocks: over thousands of photos, arenas kept megabytes resident
/// that nothing used, growing in steps (the soak measured 6.6 MB of 89 MB after 1,500 photos,
/// all of it given back by a trim).
public enum FreedMemory {
    /// Gives the whole free pages of every arena back to the kernel; they cost a page fault when
    /// used again. It takes about a millisecond: call it off the capture path, after the work
    /// that freed large blocks. The corresponding C function is `malloc_trim`.
    public static func giveBack() {
        _ = malloc_trim(0)
    }
}
