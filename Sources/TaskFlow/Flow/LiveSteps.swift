/// The steps of a live flow by id (ids count from 1), as its record keeps them for
/// ``FlowSnapshot/steps``: slots, not appends, because group children take ids and start in
/// either order.
///
/// When each step started and ended is kept apart, in plain values, and put into the
/// ``StepSnapshot``s only when a snapshot is asked for. Why (`Scripts/count-costs.sh --profile
/// step`): kept as a `StepSnapshot`, whose times are optional instants, every copy of a step
/// and every change in place went through value witnesses, 2,667 instructions more per step;
/// as two more fields of each slot, still about 900, the optional slot's enum tag going through
/// the runtime; apart, 130, the two clock reads.
struct LiveSteps {
    /// What a step's snapshot says but its times.
    struct Step {
        let info: StepInfo
        var status: StepStatus
        var progress: Double?
    }

    private struct Times {
        let started: ContinuousClock.Instant
        /// Meaningful once `hasEnded`.
        var ended: ContinuousClock.Instant
        var hasEnded = false

        init(started: ContinuousClock.Instant) {
            self.started = started
            ended = started
        }
    }

    private var steps: [Step?] = []
    /// `steps`' times, slot for slot (an empty slot's are never read).
    private var times: [Times] = []
    /// The reverts registered inside each step (by its sub-steps, or a group's children), slot
    /// for slot, until the step ends and takes them (registered after that, they go elsewhere:
    /// see ``register(_:inside:)``). Kept here rather than in an object of the
    /// step's own: that was an allocation for every background step and group child, most of
    /// which register nothing inside; an empty array is none.
    private var insides: [[RevertEntry]] = []

    /// Whether `id` started and its flow has not ended.
    func isLive(_ id: StepID) -> Bool {
        steps.indices.contains(id.rawValue - 1) && steps[id.rawValue - 1] != nil
    }

    /// `step` started, running, at `instant`.
    mutating func start(_ step: StepInfo, at instant: ContinuousClock.Instant) {
        let index = step.id.rawValue - 1
        let live = Step(info: step, status: .running, progress: nil)
        // Steps usually start in id order: then this is a plain append.
        while steps.count < index {
            steps.append(nil)
            times.append(Times(started: instant))
            insides.append([])
        }
        if steps.count == index {
            steps.append(live)
            times.append(Times(started: instant))
            insides.append([])
        } else {
            steps[index] = live
            times[index] = Times(started: instant)
        }
    }

    /// Registers `entry` inside `parent`, if `parent` is still running; false if it ended (a
    /// sub-step started from a task it did not await outlived it) or is not live: it took its
    /// inside when it ended, and would never take this one.
    mutating func register(_ entry: RevertEntry, inside parent: StepID) -> Bool {
        let index = parent.rawValue - 1
        guard isLive(parent), !times[index].hasEnded else { return false }
        insides[index].append(entry)
        return true
    }

    /// Takes what was registered inside `id`, in registration order: its own revert's children.
    mutating func takeInside(_ id: StepID) -> [RevertEntry] {
        let index = id.rawValue - 1
        guard insides.indices.contains(index), !insides[index].isEmpty else { return [] }
        var taken: [RevertEntry] = []
        swap(&taken, &insides[index])
        return taken
    }

    /// Changes a step in place (no copy of its info, which would retain its title); nil for a
    /// step that is not live.
    @discardableResult
    mutating func update<T>(_ id: StepID, _ change: (inout Step) -> T?) -> T? {
        let index = id.rawValue - 1
        guard steps.indices.contains(index), steps[index] != nil else { return nil }
        return change(&steps[index]!)  // Checked non-nil on the line above.
    }

    /// A step's run ended at `instant`, with `status`.
    mutating func end(_ id: StepID, _ status: StepStatus, at instant: ContinuousClock.Instant) {
        guard update(id, { $0.status = status }) != nil else { return }
        times[id.rawValue - 1].ended = instant
        times[id.rawValue - 1].hasEnded = true
    }

    /// Forgets every step (the flow ended).
    mutating func removeAll() {
        steps = []
        times = []
        insides = []
    }

    /// Every live step, in id order, with its times.
    var snapshots: [StepSnapshot] {
        zip(steps, times).compactMap { step, times in
            step.map {
                StepSnapshot(
                    info: $0.info, status: $0.status, progress: $0.progress,
                    started: times.started, ended: times.hasEnded ? times.ended : nil)
            }
        }
    }
}
