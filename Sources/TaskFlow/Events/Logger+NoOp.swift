import Logging

extension Logger {
    /// A logger that drops everything: the default of every logger the package's types take, so
    /// that a program that gives none pays nothing for logging (``FlowEventLog/of(_:)`` and the
    /// store recognise it and skip logging altogether).
    package static let noOp = Logger(label: "taskflow", factory: { _ in SwiftLogNoOpLogHandler() })
}
