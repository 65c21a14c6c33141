@testable import DashboardKit
import TaskFlow
import Testing

@Suite("View: snapshots of the cell grid")
struct ViewSnapshotTests {
    /// The busy fixture with the running flow selected, 3 s after the start.
    private var model: DashboardModel {
        var model = Fixture.model(Fixture.busy)
        _ = model.handle(.end)
        model.advance(to: .seconds(3))
        return model
    }

    @Test func dashboardAt80x24() {
        let grid = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 80, height: 24))
        Snapshot.assertText(grid.text, Self.expected80x24, name: "80x24")
    }

    @Test func dashboardAtTheMinimumSizeInASCII() {
        let grid = DashboardView(glyphs: .ascii).render(model, size: DashboardLayout.minimum)
        Snapshot.assertText(grid.text, Self.expected60x16, name: "60x16")
    }

    @Test func monochromeThemeDistinguishesRolesByAttributes() throws {
        let theme = try ThemeCatalog(directories: [Self.themesDirectory]).load("monochrome")
        let grid = DashboardView(glyphs: .ascii).render(model, size: DashboardLayout.minimum)
        Snapshot.assertText(Snapshot.attributes(of: grid, theme: theme), Self.expectedMonochrome, name: "monochrome")
    }

    @Test func belowTheMinimumAClearMessageReplacesTheDashboard() {
        let grid = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 40, height: 10))
        #expect(grid.text.contains("Terminal too small: 40x10"))
        #expect(grid.text.contains("at least 60x16"))
        #expect(!grid.text.contains("Flows"))
    }

    @Test func helpOverlayListsEveryKey() {
        var model = model
        _ = model.handle(.character("?"))
        let text = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 100, height: 30)).text
        for key in ["PgUp/PgDn · L", "Enter", "u, then y / n", "/ · < > i", "q"] {
            #expect(text.contains(key), "help mentions \(key)")
        }
    }

    @Test func asciiGlyphsLeaveNoNonASCIICharacter() {
        let grid = DashboardView(glyphs: .ascii).render(model, size: GridSize(width: 120, height: 40))
        #expect(grid.cells.allSatisfy { $0.scalar.isASCII })
    }

    /// Ids are never reused, so they grow past any fixed width: the id column fits the largest
    /// one kept. A four-cell column showed #8946 … #8950 all as `#89…`.
    @Test func theIdColumnFitsTheLargestIdSoRowsCanBeToldApart() {
        let ids = [8_946, 8_950, 9_999, 10_000, 123_456]
        var model = DashboardModel(scenario: "ids")
        for (index, id) in ids.enumerated() {
            _ = model.apply(.flowQueued(Fixture.info(id, "Flow \(id)", index.isMultiple(of: 2) ? .write : .read)), at: .milliseconds(10 * index))
        }
        model.advance(to: .seconds(1))
        let grid = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 80, height: 40))
        let flowsPanel = grid.text.split(separator: "\n", omittingEmptySubsequences: false).prefix(10).joined(separator: "\n")
        Snapshot.assertText(flowsPanel, Self.expectedLargeIDs, name: "large-ids")
    }

    static let themesDirectory = #filePath.split(separator: "/").dropLast(3).joined(separator: "/").prepending("/") + "/Themes"

    static let expected80x24 = """
         TaskFlow · test  WRITE Migrate archive  queue 1  wait 1 run 1 compl 1
        ┌─ Flows ──────────────────────────────────────────────────────────────────────┐
        │id   A title            status       progress        step             elapsed │
        │#1   W Import books     completed    ██████████ 100%                  1.3s    │
        │#2   R Build report     waiting                                       2.9s    │
        │#3   W Migrate archive  running      ████░░░░░░  40% batch 2          2.8s    │
        │                                                                              │
        └──────────────────────────────────────────────────────────────────────────────┘
        ┌─ #3 Migrate archive (write) — running ────────┐┌─ Lock ──────────────────────┐
        │S  Copy batches          running       1.1s    ││mode  WRITE Migrate archive  │
        │  bg batch 1             completed     0.1s    ││holders (1)                  │
        │  bg batch 2             running       0.8s    ││  #3 W Migrate archive       │
        │                                               ││queue (1)                    │
        │                                               ││  1. #2 R Build report       │
        │                                               ││                             │
        │                                               ││                             │
        │                                               ││waits 2  p50 0ms  p99 0ms    │
        └───────────────────────────────────────────────┘└─────────────────────────────┘
        ┌─ Event log ──────────────────────────────────────────────────────────────────┐
        │    1.9s  #3 "Migrate archive" ▸ Copy batches (sequence)                      │
        │    2.0s  #3 "Migrate archive" ▸ batch 1 (task)                               │
        │    2.2s  #3 "Migrate archive" ▸ batch 2 (task)                               │
        └──────────────────────────────────────────────────────────────────────────────┘
         ? help  q quit  ↑↓ select  Enter detail  c cancel  C cancel all  u undo  / filt
        """

    static let expected60x16 = """
         WRITE Migrate archive  queue 1  wait 1 run 1 compl 1
        +- Flows --------------------------------------------------+
        |id   A title         status       progress        elapsed |
        |#2   R Build report  waiting                      2.9s    |
        |#3   W Migrate arch. running      ####......  40% 2.8s    |
        +----------------------------------------------------------+
        +- #3 Migrate archive (write) - ru.-++- Lock --------------+
        |S  Copy bat. running       1.1s    ||mode  WRITE Migrate a|
        |  bg batch 1 completed     0.1s    ||holders (1)          |
        |  bg batch 2 running       0.8s    ||  #3 W Migrate archiv|
        +-----------------------------------++---------------------+
        +- Event log ----------------------------------------------+
        |    2.0s  #3 "Migrate archive" > batch 1 (task)           |
        |    2.2s  #3 "Migrate archive" > batch 2 (task)           |
        +----------------------------------------------------------+
         ? help  q quit  UpDown select  Enter detail  c cancel  C ca
        """

    static let expectedLargeIDs = """
         TaskFlow · ids  lock idle  queue 0  wait 5 run 0 compl 0
        ┌─ Flows ──────────────────────────────────────────────────────────────────────┐
        │id      A title           status       progress        step           elapsed │
        │#8946   W Flow 8946       queued                                      1.0s    │
        │#8950   R Flow 8950       queued                                      0.9s    │
        │#9999   W Flow 9999       queued                                      0.9s    │
        │#10000  R Flow 10000      queued                                      0.9s    │
        │#123456 W Flow 123456     queued                                      0.9s    │
        │                                                                              │
        │                                                                              │
        """

    static let expectedMonochrome = """
        RRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRR.RRRRRBRRRRRRR.RRRRRRR
        ..RRRRRRR...................................................
        .DD...D.DDDDD.........DDDDDD.......DDDDDDDD........DDDDDDD..
        ......D.....................................................
        .RRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRR.
        ............................................................
        ..BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB....BBBBBB...............
        ..............BBBBBBB.......DDDD......RRRRRRRRRRRRRRRRRRRRR.
        ............................DDDD......DDDDDDDDDDD...........
        ..............BBBBBBB.......DDDD............................
        ............................................................
        ..BBBBBBBBBBB...............................................
        ............................................................
        ............................................................
        ............................................................
        BB......BB......BBBBBBB........BBBBBB........BB........BB...
        """
}

extension String {
    func prepending(_ prefix: String) -> String { prefix + self }
}
