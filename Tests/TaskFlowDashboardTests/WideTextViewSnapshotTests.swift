@testable import DashboardKit
import TaskFlow
import Testing

/// Wide (CJK, emoji) and combining characters take the columns a terminal gives them, so they
/// never push text past its column or the screen's edge.
@Suite("View: wide and combining characters")
struct WideTextViewSnapshotTests {
    private func grid(width: Int, _ write: (inout CellGrid) -> Void) -> CellGrid {
        var grid = CellGrid(size: GridSize(width: width, height: 1))
        write(&grid)
        return grid
    }

    @Test func aWideCharacterTakesTwoColumnsAndNeverHalfOfOne() {
        var written = 0
        let grid = grid(width: 8) { written = $0.put("日本語", x: 0, y: 0, role: .normal, limit: 5) }
        #expect(grid.text == "日本", "the third character would need columns 4 and 5 of a 5-column limit")
        #expect(written == 4)
        #expect(grid[0, 0].width == 2 && grid[1, 0].isContinuation && grid[1, 0].drawnScalars.isEmpty)
        #expect(grid[4, 0] == .blank)
    }

    @Test func combiningMarksJoinTheirCharacter() {
        var written = 0
        let grid = grid(width: 10) { written = $0.put("Cafe\u{301}!", x: 0, y: 0, role: .normal, limit: 10) }
        #expect(written == 5)
        #expect(grid.text == "Cafe\u{301}!")
        #expect(grid[3, 0].marks == ["\u{301}"] && grid[4, 0].scalar == "!")
    }

    @Test func anEmojiSequenceKeepsItsFirstEmojiInTwoColumns() {
        let grid = grid(width: 12) { $0.put("👨‍👩‍👧‍👦 family", x: 0, y: 0, role: .normal, limit: 12) }
        #expect(grid.text == "👨 family", "the joined emoji would each take columns of their own on a terminal")
        #expect(grid[0, 0].width == 2 && grid[0, 0].marks.isEmpty)
    }

    @Test func overwritingHalfOfAWideCharacterBlanksTheOtherHalf() {
        let grid = grid(width: 4) { grid in
            grid.put("日本", x: 0, y: 0, role: .normal, limit: 4)
            grid.put("x", x: 1, y: 0, role: .normal, limit: 1)
            grid.put("y", x: 2, y: 0, role: .normal, limit: 1)
        }
        #expect(grid.text == " xy")
        #expect(grid.cells.allSatisfy { !$0.isContinuation && $0.width == 1 })
    }

    @Test func truncationCountsColumns() {
        #expect("日本語のタイトル".truncated(to: 7, glyphs: .unicode) == "日本語…")
        #expect("e\u{301}e\u{301}e\u{301}e\u{301}".truncated(to: 3, glyphs: .unicode) == "e\u{301}e\u{301}…")
        #expect("日本".truncated(to: 4, glyphs: .unicode) == "日本", "fits exactly")
    }

    @Test func wideTitlesStayInsideTheirColumnsOnTheDashboard() {
        let wide = Fixture.info(1, "日本語のタイトルとても長いタイトルです長い長い長い長い")
        let accents = Fixture.info(2, String(repeating: "Cafe\u{301} ", count: 7) + "x")
        let family = Fixture.info(3, String(repeating: "👨‍👩‍👧‍👦", count: 6) + " family")
        var model = DashboardModel(scenario: "Wide 日本語のシナリオ名前がとても長い場合のテストです")
        for (index, event) in [
            FlowEvent.flowQueued(wide), .flowQueued(accents), .flowQueued(family),
            .statusChanged(FlowID(1), .running), .statusChanged(FlowID(2), .running), .statusChanged(FlowID(3), .running),
            .stepStarted(FlowID(1), Fixture.step(1, "アップロード中のとても長いステップ名前です長い長い")),
        ].enumerated() {
            _ = model.apply(event, at: .milliseconds(100 * index))
        }
        model.advance(to: .seconds(1))
        let text = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 80, height: 24)).text
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines[0...5]) == Self.expectedTop, "header and flow list")
        #expect(lines[8] == "┌─ #1 日本語のタイトルとても長いタイトルです長…─┐┌─ Lock ──────────────────────┐")
        #expect(lines[9] == "│bg アップロード中のとて… running       0.4s    ││mode  idle                   │")
        #expect(lines[21] == "│    0.6s  #1 \"日本語のタイトルとても長いタイトルです長い長い長い長い\" ▸ アップ│")
        #expect(lines.allSatisfy { $0.displayWidth <= 80 })
    }

    @Test func formatAndControlCharactersAreWrittenAsEscapesThatTakeTheirColumns() {
        var written = 0
        let grid = grid(width: 20) { written = $0.put("a\u{202E}b\u{1B}", x: 0, y: 0, role: .normal, limit: 20) }
        #expect(grid.text == #"a\u{202E}b\u{1B}"#)
        #expect(written == 16 && "a\u{202E}b\u{1B}".displayWidth == 16)
        #expect("x\u{202E}gpj.exe".truncated(to: 9, glyphs: .unicode) == "x…", "the escape is kept whole or left out")
        #expect("\u{202E}".truncated(to: 8, glyphs: .unicode) == "\u{202E}", "fits exactly")
    }

    @Test func titlesThatWouldReadReversedShowTheirEscapesOnTheDashboard() {
        let reversed = Fixture.info(1, "Invoice \u{202E}gpj.exe")
        let hidden = Fixture.info(2, "pay\u{200B}roll \u{2066}run\u{2069}")
        var model = DashboardModel(scenario: "Bidi \u{202E}oem")
        for (index, event) in [
            FlowEvent.flowQueued(reversed), .flowQueued(hidden),
            .statusChanged(FlowID(1), .running), .statusChanged(FlowID(2), .running),
            .stepStarted(FlowID(1), Fixture.step(1, "send \u{202E}fdp.scr")),
        ].enumerated() {
            _ = model.apply(event, at: .milliseconds(100 * index))
        }
        model.advance(to: .seconds(1))
        let text = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 100, height: 24)).text
        let raw: Set<Unicode.Scalar> = ["\u{202E}", "\u{200B}", "\u{2066}", "\u{2069}"]
        #expect(!text.unicodeScalars.contains(where: raw.contains), "\(text)")
        for escaped in [#"Bidi \u{202E}oem"#, #"Invoice \u{202E}gpj.exe"#, #"pay\u{200B}roll \u{2066}run\u{2069}"#, #"send \u{202E}fdp.scr"#] {
            #expect(text.contains(escaped), "\(escaped) in \(text)")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.allSatisfy { $0.displayWidth <= 100 })
        // The statuses line up: the escapes took the columns the titles were measured with.
        let statusColumns = lines.filter { $0.hasPrefix("│#") }.map { line in
            line.firstRange(of: "running").map { String(line[..<$0.lowerBound]).displayWidth }
        }
        #expect(statusColumns.count == 2 && Set(statusColumns).count == 1, "\(lines)")
    }

    /// Every status starts in the same column, whatever the titles before it hold.
    static let expectedTop = [
        " TaskFlow · Wide 日本語のシナリオ名前… lock idle  queue 0  wait 0 run 3 compl 0",
        "┌─ Flows ──────────────────────────────────────────────────────────────────────┐",
        "│id   A title            status       progress        step             elapsed │",
        "│#1   W 日本語のタイト…  running                      アップロード中…  1.0s    │",
        "│#2   W Cafe\u{301} Cafe\u{301} Cafe\u{301} … running                                       0.9s    │",
        "│#3   W 👨👨👨👨👨👨 fa… running                                       0.8s    │",
    ]
}
