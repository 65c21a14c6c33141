import TaskFlow
import TOMLSource

/// Decodes the steps of one flow, recursively, checking each against where it is written: the
/// flow's access (read flows revert and update nothing) and its container (updates only at the
/// top level, only main steps inside a task, no main-step durations inside a composite).
struct StepDecoder {
    let log: IssueLog
    let access: FlowAccess

    func step(at path: TOMLPath, _ entries: [String: TOMLNode], in container: StepPlace.Container) -> StepSpec {
        let place = StepPlace(container: container, access: access)
        guard let kind = kind(at: path, entries) else { return StepSpec(title: "", kind: .group([])) }
        let reader = TableReader(
            entries, at: path, name: TableReader.name("\(kind) step", titledBy: entries[kind.rawValue]), log: log,
            allowed: StepKeys.allowed(kind, at: place), reasons: StepKeys.reasons(kind, at: place))
        checkPlacement(of: kind, reader, at: place)
        let title = reader.title(kind.rawValue) ?? ""
        return switch kind {
        case .main: StepSpec(title: title, kind: .main(work(reader, isMain: true)))
        case .task: StepSpec(title: title, kind: .task(work(reader, isMain: false), foreground: children(reader, in: .task)))
        case .group: StepSpec(title: title, kind: .group(children(reader, in: .composite)))
        case .sequence: StepSpec(title: title, kind: .sequence(children(reader, in: .composite)))
        case .update: StepSpec(title: title, kind: .update(StateChangeDecoder(log: log).change(reader)))
        }
    }

    /// The one key naming the step's kind, or nil (reported) when there is none or several.
    private func kind(at path: TOMLPath, _ entries: [String: TOMLNode]) -> StepKindKey? {
        let kinds = StepKindKey.allCases.filter { entries[$0.rawValue] != nil }
        switch kinds.count {
        case 1:
            return kinds[0]
        case 0:
            log.key(path, "a step needs a key naming its kind and title: main, task, group, sequence or update "
                + "(for example task = \"Upload\")")
        default:
            log.key(path.appending(kinds[1].rawValue),
                    "a step has exactly one kind, but this one is both '\(kinds[0])' and '\(kinds[1])'")
        }
        return nil
    }

    private func checkPlacement(of kind: StepKindKey, _ reader: TableReader, at place: StepPlace) {
        let kindPath = reader.path.appending(kind.rawValue)
        if place.container == .task, kind != .main {
            log.key(kindPath, "a task's steps are its foreground sub-steps: only main steps are allowed there, not \(kind)")
        } else if kind == .update, place.access == .read {
            log.key(kindPath, "update steps change the state: only write flows may have them")
        } else if kind == .update, place.container != .flow {
            log.key(kindPath, "update steps run only at a flow's top level, not inside a group or sequence")
        }
    }

    private func work(_ reader: TableReader, isMain: Bool) -> StepWork {
        if !isMain, !reader.contains("duration") {
            reader.reportMissing("duration", "how long the task takes, like \"1.5s\"")
        }
        return StepWork(
            duration: reader.duration("duration") ?? .zero,
            revert: revert(reader, isMain: isMain),
            reportsProgress: reader.bool("progress") ?? true,
            failure: failure(reader)
        )
    }

    /// `revert = true` is an instant revert, `false` none, a duration a revert that takes time;
    /// a main step's revert runs synchronously on the main actor, so it cannot take time.
    private func revert(_ reader: TableReader, isMain: Bool) -> Duration? {
        guard let node = reader.node("revert") else { return nil }
        let path = reader.path.appending("revert")
        switch node {
        case .bool(let reverts):
            return reverts ? .zero : nil
        case .string where isMain:
            log.value(path, "a main step's revert runs at once on the main actor: write revert = true")
            return nil
        default:
            let expected = "true, false or " + TableReader.durationExpectation
            return TableReader.duration(node, at: path, key: "revert", log: log, expected: expected)
        }
    }

    private func failure(_ reader: TableReader) -> FailureInjection? {
        let at = reader.fraction("fail_at")
        let chance = reader.fraction("fail_chance")
        if reader.contains("fail_at"), reader.contains("fail_chance") {
            log.key(reader.path.appending("fail_chance"), "use either 'fail_at' or 'fail_chance', not both")
        }
        return at.map(FailureInjection.at) ?? chance.map(FailureInjection.chance)
    }

    /// The `steps` of a task (optional) or a composite (required, not empty).
    private func children(_ reader: TableReader, in container: StepPlace.Container) -> [StepSpec] {
        let isRequired = container == .composite
        guard reader.contains("steps") else {
            if isRequired { reader.reportMissing("steps", "the steps it runs") }
            return []
        }
        guard let tables = reader.tables("steps") else { return [] }
        if isRequired, tables.isEmpty {
            log.value(reader.path.appending("steps"), "\(reader.name) has no steps: it needs at least one")
        }
        return tables.map { step(at: $0.path, $0.entries, in: container) }
    }
}
