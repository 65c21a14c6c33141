/// Something that draws itself into a rectangle of a grid. Widgets hold the data they show and
/// never draw outside their rectangle.
package protocol Widget {
    /// Draws into `rect` of `grid`.
    func render(into grid: inout CellGrid, in rect: Rect)
}
