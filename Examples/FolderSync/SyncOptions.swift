import Foundation
import TaskFlowDashboard

/// The example's command line: `[--folder PATH] [--pace SECONDS] [--theme NAME] [--headless | --json]`.
struct SyncOptions {
    /// The folder to work in; nil: a fresh temporary one.
    var folder: URL?
    /// How long each file's step takes (the work is small; the pace lets you press `c` mid-way).
    var pace: Duration = .milliseconds(800)
    /// A theme name or file for the dashboard.
    var theme: String?
    /// Where the events go.
    var output: Dashboard.Output = .automatic

    /// A bad argument, in one line.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads `arguments` (without the program's name).
    init(_ arguments: ArraySlice<String>) throws {
        var rest = arguments
        while let argument = rest.popFirst() {
            switch argument {
            case "--folder": folder = URL(fileURLWithPath: try Self.value(of: argument, from: &rest))
            case "--pace": pace = try Self.seconds(try Self.value(of: argument, from: &rest))
            case "--theme": theme = try Self.value(of: argument, from: &rest)
            case "--headless": output = .text
            case "--json": output = .json
            default: throw Problem(description: "unknown argument '\(argument)' (use --folder PATH, --pace SECONDS, --theme NAME, --headless, --json)")
            }
        }
    }

    private static func value(of option: String, from rest: inout ArraySlice<String>) throws -> String {
        guard let value = rest.popFirst() else { throw Problem(description: "\(option) needs a value") }
        return value
    }

    private static func seconds(_ text: String) throws -> Duration {
        guard let seconds = Double(text), (0...60).contains(seconds) else {
            throw Problem(description: "--pace takes seconds from 0 to 60, not '\(text)'")
        }
        return .milliseconds(Int(seconds * 1000))
    }
}
