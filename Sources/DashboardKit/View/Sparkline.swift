/// A row of counts as a one-line bar chart, one column per count, scaled to the largest: zero
/// is the lowest glyph and any count above zero at least the second, so "nothing happened" and
/// "a little happened" never look alike. Block elements (`▁▂▃▄▅▆▇█`) with Unicode glyphs, an
/// ASCII ramp (`_.:-=+*#`) without.
package enum Sparkline {
    /// The glyphs from zero to the largest count.
    static func levels(_ glyphs: Glyphs) -> [Character] {
        glyphs.unicode ? ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"] : ["_", ".", ":", "-", "=", "+", "*", "#"]
    }

    /// `counts` drawn left to right, one column each. A negative count draws as zero.
    package static func render(_ counts: [Int], glyphs: Glyphs) -> String {
        let levels = levels(glyphs)
        let top = counts.max() ?? 0
        guard top > 0 else { return String(repeating: levels[0], count: counts.count) }
        let steps = levels.count - 1
        return String(counts.map { count -> Character in
            guard count > 0 else { return levels[0] }
            // Rounded up: the smallest non-zero count still rises off the baseline.
            return levels[(count * steps + top - 1) / top]
        })
    }
}
