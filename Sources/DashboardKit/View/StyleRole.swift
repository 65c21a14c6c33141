/// What a cell means, which a theme turns into colours and attributes. The view only ever
/// names roles, so the same grid renders in any theme, in colour or monochrome.
///
/// The raw value is the key a theme file uses (`status.running = "green"`).
package enum StyleRole: String, Sendable, CaseIterable, Hashable {
    case normal
    case dim
    case header
    case title
    case border
    case selection
    case keyHint = "key"
    case notice
    case paused
    case statusQueued = "status.queued"
    case statusWaiting = "status.waiting"
    case statusRunning = "status.running"
    case statusRollingBack = "status.rolling_back"
    case statusCompleted = "status.completed"
    case statusCancelled = "status.cancelled"
    case statusFailed = "status.failed"
    case statusUndone = "status.undone"
    case lockIdle = "lock.idle"
    case lockRead = "lock.read"
    case lockWrite = "lock.write"
    case progressFilled = "progress.filled"
    case progressEmpty = "progress.empty"
    case logInfo = "log.info"
    case logWarning = "log.warning"
    case logError = "log.error"
}
