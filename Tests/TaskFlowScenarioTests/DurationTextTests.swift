import Testing
@testable import TaskFlowScenario

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

    @Test func acceptsUpToTwentyFourHours() {
        #expect(DurationText.longest == .seconds(86_400))
        #expect(DurationText.parse("1440m") == DurationText.longest)
        #expect(DurationText.parse("86400000ms") == DurationText.longest)
    }

    /// Before the cap, these parsed (or trapped converting to `Duration`) and crashed whatever
    /// formatted or multiplied them later.
    @Test(arguments: ["1440.001m", "86401s", "99999999999999999999s", String(repeating: "9", count: 400) + "ms"])
    func rejectsAnythingLongerThanTwentyFourHours(_ text: String) {
        #expect(DurationText.parse(text) == nil)
        #expect(DurationText.read(text) == .tooLong)
    }

    /// A summary adds durations up, so `format` may see more than any file can write.
    @Test func formatsHugeDurationsWithoutTrapping() {
        // More whole seconds than `Int` holds: written as a floating-point number, not a trap.
        #expect(DurationText.format(.seconds(Int64.max)) == "9.223372036854776e+18s")
    }
}
