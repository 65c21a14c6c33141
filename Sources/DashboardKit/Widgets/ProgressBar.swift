/// `████░░░░  42%`: a bar of `width` cells followed by the percentage.
struct ProgressBar {
    /// 0...1; nil draws nothing (no progress reported).
    let fraction: Double?
    let glyphs: Glyphs

    /// Cells the percentage takes after the bar.
    static let percentWidth = 5

    func render(into grid: inout CellGrid, x: Int, y: Int, width: Int) {
        guard let fraction, width > Self.percentWidth else { return }
        let clamped = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        let barWidth = width - Self.percentWidth
        let filled = Int((clamped * Double(barWidth)).rounded(.down))
        grid.put(String(repeating: String(glyphs.filled), count: filled), x: x, y: y, role: .progressFilled, limit: filled)
        grid.put(String(repeating: String(glyphs.empty), count: barWidth - filled), x: x + filled, y: y, role: .progressEmpty, limit: barWidth - filled)
        let percent = "\(Int((clamped * 100).rounded(.down)))%"
        grid.put(String(repeating: " ", count: Self.percentWidth - percent.count) + percent, x: x + barWidth, y: y, role: .normal, limit: Self.percentWidth)
    }
}
