import DashboardKit

/// Why ``Dashboard/run()`` returned, and the exit status a program would end with: see
/// `DashboardExit.status`. The one type the `taskflow` command's dashboard returns too.
public typealias DashboardExit = DashboardKit.DashboardExit
