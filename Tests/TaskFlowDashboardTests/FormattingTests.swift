@testable import DashboardKit
import Testing

/// Durations as the columns show them: read at a glance from a tenth of a second to weeks (a
/// program attached to may have run that long), in at most 7 columns.
@Suite("View: durations")
struct FormattingTests {
    @Test func aDurationTakesTheLargestUnitsThatFit() {
        let shown: [(Duration, String)] = [
            (.milliseconds(400), "0.4s"), (.seconds(12), "12.0s"), (.seconds(187), "3m07s"), (.seconds(3599), "59m59s"),
            (.seconds(3600), "1h00m"), (.seconds(60_000), "16h40m"), (.seconds(86_400 * 3 + 3600 * 4), "3d04h"),
            (.seconds(86_400 * 999 + 3600 * 23), "999d23h"), (.seconds(-5), "0.0s"),
        ]
        for (duration, text) in shown {
            #expect(duration.compact == text, "\(duration)")
            #expect(duration.compact.count <= 7)
        }
        #expect(Duration.milliseconds(62).delayText == "62ms" && Duration.milliseconds(1500).delayText == "1.5s")
    }

    /// A peer (a program attached to, a recording) may send any duration `Duration` holds: its
    /// milliseconds overflowed `Int64` and stopped the dashboard.
    @Test func theLongestDurationsShowWithoutOverflowing() {
        let longest = Duration(secondsComponent: .max, attosecondsComponent: 0)
        #expect(longest.compact.hasSuffix("h") && longest.delayText == longest.compact)
        #expect(Duration(secondsComponent: .min, attosecondsComponent: 0).delayText == "0ms")
    }
}
