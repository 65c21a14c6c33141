import TaskFlowStore

/// Whether `store` holds no job at all (a listing error counts as not yet).
func isDrained(_ store: JobStore) async -> Bool {
    (try? await store.jobs().isEmpty) == true
}
