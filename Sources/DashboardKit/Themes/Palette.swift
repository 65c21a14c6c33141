/// The xterm palette's RGB values, to match a colour to the nearest one a terminal has.
enum Palette {
    /// Components 0–255.
    typealias RGB = (red: Int, green: Int, blue: Int)

    /// The sixteen basic colours as xterm shows them.
    private static let basic: [RGB] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The RGB value of a palette index (0–255).
    static func rgb(of index: Int) -> RGB {
        if index < 16 { return basic[max(index, 0)] }
        if index < 232 {
            // The 6×6×6 cube: each component is 0 or 55 + 40·level.
            let cube = index - 16
            let level = { (value: Int) in value == 0 ? 0 : 55 + 40 * value }
            return (level(cube / 36), level(cube / 6 % 6), level(cube % 6))
        }
        let gray = 8 + 10 * (index - 232)
        return (gray, gray, gray)
    }

    /// The index among the first `count` palette entries closest to `color`.
    static func nearest(to color: RGB, among count: Int) -> Int {
        var best = 0, bestDistance = Int.max
        for index in 0..<min(count, 256) {
            let candidate = rgb(of: index)
            let distance = square(candidate.red - color.red) + square(candidate.green - color.green) + square(candidate.blue - color.blue)
            if distance < bestDistance { (best, bestDistance) = (index, distance) }
        }
        return best
    }

    private static func square(_ value: Int) -> Int { value * value }
}
