import Testing
import TaskFlowScenario

@Suite struct DurationTextTests {
    @Test func parsesTheThreeUnits() {
        #expect(DurationText.parse("300ms") == .milliseconds(300))
        #expect(DurationText.parse("1.5s") == .milliseconds(1500))
        #expect(DurationText.parse("2m") == .seconds(120))
        #expect(DurationText.parse("0s") == .zero)
    }

    @Test(arguments: ["", "s", "3", "3 s", "-1s", "1e3ms", "1.s", ".5s", "1h", "inf s", "+2s", "1.2.3s"])
    func rejectsAnythingElse(_ text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test func formatsTheWayFilesWriteThem() {
        #expect(DurationText.format(.milliseconds(250)) == "250ms")
        #expect(DurationText.format(.milliseconds(1500)) == "1.5s")
        #expect(DurationText.format(.seconds(120)) == "2m")
        #expect(DurationText.format(.seconds(90)) == "90s")
    }
}
