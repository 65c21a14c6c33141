#if canImport(Glibc)
import Glibc
#endif

/// How many bytes the process has allocated through `malloc` right now.
///
/// On Linux this asks glibc's allocator itself, with `malloc_info()`: bytes in use are the
/// arenas' `system current` size minus their free chunks (`fast` + `rest`, the top chunk
/// included) plus the chunks served by `mmap` — the same figure as `mallinfo2()`'s
/// `uordblks + hblkhd`. (`<malloc.h>` is not part of Swift's Glibc module, so neither function is
/// visible; `malloc_info` has a C-representable signature and is looked up with `dlsym`.)
/// Unlike `/proc/self/statm` it does not depend on page granularity or on whether freed memory
/// went back to the kernel, so the difference between two readings is the live heap growth.
/// Swift objects, arrays, closure contexts and task frames are all allocated through `malloc`.
enum MemoryProbe {
    #if canImport(Glibc)
    private typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32

    /// `malloc_info`, if this libc has it.
    private static func mallocInfo() -> MallocInfo? {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_info") else { return nil }
        return unsafeBitCast(symbol, to: MallocInfo.self)
    }
    #endif

    /// Whether this platform can measure; elsewhere the memory rows are skipped.
    static var isAvailable: Bool { allocatedBytes() != nil }

    /// Bytes allocated and not freed, or nil where glibc's `malloc_info` is missing.
    static func allocatedBytes() -> Int? {
        #if canImport(Glibc)
        guard let mallocInfo = mallocInfo() else { return nil }
        var buffer: UnsafeMutablePointer<CChar>?
        var length = 0
        guard let stream = open_memstream(&buffer, &length) else { return nil }
        let status = mallocInfo(0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard status == 0, let buffer else { return nil }
        let xml = String(cString: buffer)
        // The totals over all arenas come last, after the per-arena sections.
        guard let current = lastSize(in: xml, after: "<system type=\"current\""),
              let fast = lastSize(in: xml, after: "<total type=\"fast\""),
              let rest = lastSize(in: xml, after: "<total type=\"rest\""),
              let mmapped = lastSize(in: xml, after: "<total type=\"mmap\"")
        else { return nil }
        return current - fast - rest + mmapped
        #else
        return nil
        #endif
    }

    /// The `size="…"` attribute of the last element of `xml` that starts with `prefix`.
    private static func lastSize(in xml: String, after prefix: String) -> Int? {
        guard let element = xml.split(separator: "\n").last(where: { $0.contains(prefix) }),
              let attribute = element.split(separator: " ").first(where: { $0.hasPrefix("size=\"") })
        else { return nil }
        return Int(attribute.dropFirst("size=\"".count).prefix { $0.isNumber })
    }
}
