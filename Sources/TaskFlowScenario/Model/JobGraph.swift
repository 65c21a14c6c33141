import HeapModule

/// The jobs of a scenario as a dependency graph: the order to add them in (every job after the
/// jobs it waits for) or, when `after` goes round in a circle, one such circle to report.
///
/// Kahn's algorithm with a work list, linear in jobs plus dependencies and recursing nowhere,
/// so a file of 100,000 chained jobs needs no deeper stack than one of three.
struct JobGraph {
    /// For each job (by index in file order), the indices of the jobs it waits for; titles that
    /// name no job are left out (validation reports them).
    let dependencies: [[Int]]

    init(_ jobs: [JobSpec]) {
        var index: [String: Int] = [:]
        for (position, job) in jobs.enumerated() where index[job.title] == nil { index[job.title] = position }
        dependencies = jobs.map { job in job.after.compactMap { index[$0] } }
    }

    /// Every job's index, each after the jobs it waits for, in file order among the jobs that
    /// are ready at the same time; nil when there is a cycle.
    var topologicalOrder: [Int]? {
        let (order, _) = sort()
        return order.count == dependencies.count ? order : nil
    }

    /// The jobs of one cycle, in `after` order and starting at the first of them in the file
    /// (`[a, b]` for a after b, b after a); nil when there is none.
    var cycle: [Int]? {
        let (order, unmet) = sort()
        guard order.count < dependencies.count, let start = unmet.firstIndex(where: { $0 > 0 }) else { return nil }
        // Every job left has a dependency that is left too, so following them must come back.
        var seenAt: [Int: Int] = [:]
        var path: [Int] = []
        var job = start
        while seenAt[job] == nil {
            seenAt[job] = path.count
            path.append(job)
            // A dependency still unmet after the sort is itself on or behind a cycle.
            guard let next = dependencies[job].first(where: { unmet[$0] > 0 }) else { return nil }
            job = next
        }
        let loop = Array(path[(seenAt[job] ?? 0)...])
        let first = loop.indices.min { loop[$0] < loop[$1] } ?? 0
        return Array(loop[first...] + loop[..<first])
    }

    /// Kahn's sort: the order found, and how many dependencies each job still waited for when
    /// it stopped (all zero when there is no cycle).
    private func sort() -> (order: [Int], unmet: [Int]) {
        var unmet = dependencies.map(\.count)
        var dependents = [[Int]](repeating: [], count: dependencies.count)
        for (job, waitsFor) in dependencies.enumerated() {
            for dependency in waitsFor { dependents[dependency].append(job) }
        }
        var ready = Heap(unmet.indices.filter { unmet[$0] == 0 })
        var order: [Int] = []
        order.reserveCapacity(dependencies.count)
        while let job = ready.popMin() {
            order.append(job)
            for dependent in dependents[job] {
                unmet[dependent] -= 1
                if unmet[dependent] == 0 { ready.insert(dependent) }
            }
        }
        return (order, unmet)
    }
}
