/// A boot's tasks, checked and indexed for the scheduler: every title unique, every dependency
/// known, no cycle. Building one is the whole of a boot's validation, so a boot that cannot run
/// is refused before any task starts.
///
/// Everything is iterative (a worklist and a walk, no recursion) so a 100,000-task chain
/// validates without growing the stack, and linear in tasks + dependencies. Edges are kept in
/// compressed rows (one flat array plus offsets) rather than an array per task: a 10,000-task
/// graph then costs a few arrays instead of 20,000 small ones.
struct BootGraph: Sendable {
    /// The nodes in the order they were added; every other array is indexed like this one.
    let nodes: [BootNode]
    /// How many dependencies each node waits for (a title listed twice counts twice, and is
    /// released twice, so the count still reaches zero exactly when all have succeeded).
    let dependencyCounts: [Int]
    /// The nodes that depend on node `i` are `dependents[dependentStart[i] ..< dependentStart[i + 1]]`.
    let dependentStart: [Int]
    let dependents: [Int]

    /// Validates `nodes` for the boot titled `boot`.
    ///
    /// - Throws: ``BootError/duplicateTitle(boot:title:)`` for the first title seen twice,
    ///   ``BootError/unknownDependency(boot:task:dependency:)`` for the first unknown `after:`
    ///   title, ``BootError/cycle(boot:path:)`` with one cycle's path if the tasks can't all run.
    init(validating nodes: [BootNode], boot: String) throws(BootError) {
        var index: [String: Int] = [:]
        index.reserveCapacity(nodes.count)
        for (position, node) in nodes.enumerated() {
            guard index.updateValue(position, forKey: node.title) == nil else {
                throw .duplicateTitle(boot: boot, title: node.title)
            }
        }
        let dependencies = try Self.resolveDependencies(of: nodes, index: index, boot: boot)
        self.nodes = nodes
        dependencyCounts = (0..<nodes.count).map { dependencies.start[$0 + 1] - dependencies.start[$0] }
        (dependentStart, dependents) = Self.invert(dependencies, nodeCount: nodes.count)
        if let path = findCycle(dependencies: dependencies) {
            throw .cycle(boot: boot, path: path.map { nodes[$0].title })
        }
    }

    /// Node `i` depends on `flat[start[i] ..< start[i + 1]]`.
    struct Rows {
        var start: [Int]
        var flat: [Int]
    }

    /// Every node's `after:` titles as node indices, in compressed rows.
    private static func resolveDependencies(
        of nodes: [BootNode], index: [String: Int], boot: String
    ) throws(BootError) -> Rows {
        var rows = Rows(start: [0], flat: [])
        rows.start.reserveCapacity(nodes.count + 1)
        for node in nodes {
            for title in node.after {
                guard let dependency = index[title] else {
                    throw .unknownDependency(boot: boot, task: node.title, dependency: title)
                }
                rows.flat.append(dependency)
            }
            rows.start.append(rows.flat.count)
        }
        return rows
    }

    /// The same edges the other way round: for each node, the nodes that depend on it.
    private static func invert(_ dependencies: Rows, nodeCount: Int) -> (start: [Int], flat: [Int]) {
        var start = [Int](repeating: 0, count: nodeCount + 1)
        for dependency in dependencies.flat { start[dependency + 1] += 1 }
        for node in 0..<nodeCount { start[node + 1] += start[node] }
        var fill = start
        var flat = [Int](repeating: 0, count: dependencies.flat.count)
        for node in 0..<nodeCount {
            for dependency in dependencies.flat[dependencies.start[node]..<dependencies.start[node + 1]] {
                flat[fill[dependency]] = node
                fill[dependency] += 1
            }
        }
        return (start, flat)
    }

    /// One cycle as a path of node indices (first == last, each runs after the one before), or
    /// nil when every node can run.
    ///
    /// Kahn's algorithm releases every node whose dependencies can all finish; whatever is left
    /// waits, directly or not, on a cycle. Each node left has a dependency that is also left,
    /// so walking such dependencies from any node left must come back to a node already on
    /// the walk: the part of the walk from that node on is a cycle.
    private func findCycle(dependencies: Rows) -> [Int]? {
        var waiting = dependencyCounts
        var released = waiting.indices.filter { waiting[$0] == 0 }
        var next = 0
        while next < released.count {
            let node = released[next]
            next += 1
            for dependent in dependents[dependentStart[node]..<dependentStart[node + 1]] {
                waiting[dependent] -= 1
                if waiting[dependent] == 0 { released.append(dependent) }
            }
        }
        guard released.count < nodes.count, let first = waiting.firstIndex(where: { $0 > 0 }) else { return nil }

        var positionOnWalk = [Int: Int]()
        var walk: [Int] = []
        var node = first
        while positionOnWalk[node] == nil {
            positionOnWalk[node] = walk.count
            walk.append(node)
            let row = dependencies.flat[dependencies.start[node]..<dependencies.start[node + 1]]
            // Sound: `node` is left waiting, so at least one of its dependencies is left too.
            node = row.first { waiting[$0] > 0 }!
        }
        let cycleStart = positionOnWalk[node, default: 0]
        // The walk follows "runs after" backwards; reverse it so each title runs after the one
        // before it, and start at the earliest-added title so the message is always the same.
        let cycle = Array(walk[cycleStart...].reversed())
        let earliest = cycle.indices.min { cycle[$0] < cycle[$1] } ?? 0
        let rotated = Array(cycle[earliest...] + cycle[..<earliest])
        return rotated + [rotated[0]]
    }
}
