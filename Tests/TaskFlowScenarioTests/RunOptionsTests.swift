import Testing
import TaskFlowScenario

@Suite struct RunOptionsTests {
    @Test(arguments: [0.01, 0.5, 1, 4, 1000])
    func acceptsSpeedsFromAHundredthToAThousand(_ speed: Double) {
        #expect(RunOptions.isValidSpeed(speed))
    }

    /// 1e-9 used to pass, and a one-second step then took thirty years.
    @Test(arguments: [1e-9, 0.009, 0, -1, 1000.5, 1e12, .infinity, .nan])
    func rejectsEverySpeedOutsideThatRange(_ speed: Double) {
        #expect(!RunOptions.isValidSpeed(speed))
    }
}
