@testable import DashboardKit
import Foundation
import TaskFlow
import Testing

/// Sort, filter and act on many, as a user of the flows and stored jobs views meets them:
/// `<` `>` `i` reorder the list and mark the heading, `/` takes words and `field:value` terms
/// (a bad one is refused, saying why), the panel says how many of how many match, and `C` / `R`
/// act on every match after a question stating the count.
@Suite("Lists: sort, filter, act on many")
struct ListQueryTests {
    // MARK: - The filter grammar

    @Test func wordsAndFieldsNarrowSameFieldTermsAreAlternativesAndMinusExcludes() throws {
        let schema = FlowsTab.schema(now: .seconds(10))
        let rows = Self.flows.board.flows
        func titles(_ text: String) throws -> [String] {
            var query = ListQuery()
            query.setText(text, fields: schema.fieldNames)
            #expect(query.error == nil, "\(text): \(String(describing: query.error))")
            return query.apply(rows, schema).map(\.info.title)
        }
        #expect(try titles("import") == ["Import books", "Import covers"])
        #expect(try titles("IMPORT covers") == ["Import covers"], "case is ignored; every word must appear")
        #expect(try titles("state:failed") == ["Import covers", "Send mail"])
        #expect(try titles("state:failed state:running") == ["Import covers", "Build report", "Send mail"])
        #expect(try titles("state:failed access:read") == ["Send mail"])
        #expect(try titles("error:409") == ["Import covers"])
        #expect(try titles("-state:failed") == ["Import books", "Build report"])
        #expect(try titles("") == rows.map(\.info.title))
    }

    @Test func theByteSearchFindsWhatContainsFinds() {
        let cases = [("", "abc"), ("abc", "abc"), ("bc", "abc"), ("abcd", "abc"), ("x", ""), ("ée", "café ée"), ("aab", "aaab"), ("ba", "aaab")]
        for (needle, haystack) in cases {
            #expect(ListFilter.find(needle, in: haystack) == (needle.isEmpty || haystack.contains(needle)), "\(needle) in \(haystack)")
        }
    }

    @Test func anUnknownFieldIsRefusedNamingTheFieldsWhileTheOtherTermsApply() {
        var model = Self.flows
        type("/state:failed", into: &model)
        #expect(model.flows.visibleFlows(model.shared).count == 2)
        type(" kind:x", into: &model)
        #expect(model.flows.filterError == "no field 'kind' here; use state: access: title: step: error: or plain words")
        #expect(model.flows.visibleFlows(model.shared).count == 2, "the terms that parse still apply")
        let status = Self.screen(model)
        #expect(status.contains("filter: state:failed kind:x_   no field 'kind' here"), "\(status)")
        _ = model.handle(.enter)
        #expect(model.notice == "filter: no field 'kind' here; use state: access: title: step: error: or plain words")
        #expect(model.flows.filter == "state:failed", "Enter drops the term that did not parse")
        type("/ state:", into: &model)
        #expect(model.flows.filterError == "'state:' needs a value, like state:failed")
        _ = model.handle(.escape)
        #expect(model.flows.filter == "" && model.flows.visibleFlows(model.shared).count == 4)
    }

    @Test func thePanelSaysHowManyOfHowManyMatch() {
        var model = Self.flows
        type("/state:failed\n", into: &model)
        #expect(Self.screen(model).contains("Flows — 2 of 4 — filter \"state:failed\""), "\(Self.screen(model))")
        #expect(Int(3402).grouped == "3,402" && Int(1_000_000).grouped == "1,000,000" && Int(12).grouped == "12")
    }

    // MARK: - Sort

    @Test func sortKeysWalkTheColumnsInvertAndMarkTheHeadingWhileTheSelectionStays() {
        var model = Self.flows
        _ = model.handle(.down)  // #2 "Import covers"
        let commands = model.handle(.character(">"))
        #expect(model.flows.visibleFlows(model.shared).map(\.info.id.rawValue) == [1, 2, 3, 4], "by id")
        #expect(commands == [.rememberSort(view: "flows", SavedSort(column: "id", ascending: true))])
        _ = model.handle(.character(">"))
        _ = model.handle(.character(">"))
        #expect(model.notice == "flows sorted by title, smallest first")
        #expect(model.flows.visibleFlows(model.shared).map(\.info.title) == ["Build report", "Import books", "Import covers", "Send mail"])
        #expect(Self.screen(model).contains("title▲"))
        _ = model.handle(.character("i"))
        #expect(model.flows.visibleFlows(model.shared).map(\.info.title) == ["Send mail", "Import covers", "Import books", "Build report"])
        #expect(Self.screen(model).contains("title▼"))
        #expect(model.flows.selection == FlowID(2), "the selection stays on its flow")
        _ = model.handle(.down)
        #expect(model.flows.selection == FlowID(1), "↓ follows the sorted order")
        _ = model.handle(.character("<"))
        _ = model.handle(.character("<"))
        #expect(model.notice == "flows sorted by id, smallest first")
    }

    @Test func aStatusSortFollowsTheLifecycleAndTiesKeepSubmissionOrder() {
        var model = Self.flows
        model.update(FlowsTab.self) { $0.restoreSort(SavedSort(column: "status", ascending: true)) }
        #expect(model.flows.visibleFlows(model.shared).map(\.info.title) == ["Build report", "Import books", "Import covers", "Send mail"])
        model.update(FlowsTab.self) { $0.restoreSort(SavedSort(column: "status", ascending: false)) }
        #expect(model.flows.visibleFlows(model.shared).map(\.info.title) == ["Import covers", "Send mail", "Import books", "Build report"])
        model.update(FlowsTab.self) { $0.restoreSort(SavedSort(column: "no such column", ascending: true)) }
        #expect(model.flows.query.sort == ListSort(column: 3, ascending: false), "a saved sort naming no column is ignored")
    }

    /// The time of a sort of 100,000 rows is the benchmark's; this is its correctness.
    @Test func sortingTwentyThousandRowsKeepsEveryRowAndTheOrder() {
        let rows = (0..<20_000).map { FlowRow(info: FlowInfo(id: FlowID($0), title: "flow \(($0 * 7919) % 20_000)", access: .write), queuedAt: .zero) }
        var query = ListQuery(sort: ListSort(column: 2, ascending: true))
        let sorted = query.apply(rows, FlowsTab.schema(now: .zero))
        #expect(sorted.count == rows.count)
        #expect(zip(sorted, sorted.dropFirst()).allSatisfy { $0.info.title.lowercased() <= $1.info.title.lowercased() })
        query.sort = ListSort(column: 2, ascending: false)
        #expect(query.apply(rows, FlowsTab.schema(now: .zero)).first?.info.title == "flow 9999")
    }

    // MARK: - Act on many

    @Test func capitalCWithAFilterCancelsEveryMatchAfterAQuestionStatingTheCount() {
        var model = Self.flows
        type("/report\n", into: &model)
        #expect(model.handle(.character("C")).isEmpty, "nothing before the answer")
        guard case .confirm(let question) = model.mode else {
            Issue.record("no question: \(model.mode)")
            return
        }
        #expect(question.prompt == "Cancel 1 flow matching \"report\"? Each rolls back.  y = cancel   n = keep")
        #expect(model.handle(.character("y")) == [.cancel(FlowID(3))])
        #expect(model.board.log.entries.last?.text == "cancel 1 flow matching \"report\"")

        type("/\u{7f}\u{7f}\u{7f}\u{7f}\u{7f}\u{7f}state:failed\n", into: &model)
        #expect(model.handle(.character("C")).isEmpty)
        #expect(model.notice == "no flow matching \"state:failed\" can be cancelled", "finished flows cannot be cancelled")
    }

    @Test func storeJobsFilterByStateAndKindAndRetryOrRemoveEveryMatch() {
        var model = Self.store
        type("/state:failed kind:send\n", into: &model)
        let tab = model.tab(StoreTab.self)
        #expect(tab?.visibleRows.map(\.id.rawValue) == [4, 6])
        #expect(Self.screen(model).contains("Jobs — 2 of 6 — filter \"state:failed kind:send\" — jobs.sqlite"), "\(Self.screen(model))")
        _ = model.handle(.character("R"))
        guard case .confirm(let question) = model.mode else {
            Issue.record("no question: \(model.mode)")
            return
        }
        #expect(question.prompt == "Retry 2 jobs matching \"state:failed kind:send\"? They are queued again now.  y = retry   n = keep")
        #expect(model.handle(.character("y")) == [.retryStoredJob(.init(4)), .retryStoredJob(.init(6))])
        #expect(model.board.log.entries.last?.text == "retry 2 jobs matching \"state:failed kind:send\"")

        _ = model.handle(.escape)
        _ = model.handle(.character("C"))
        guard case .confirm(let removal) = model.mode else {
            Issue.record("no question: \(model.mode)")
            return
        }
        #expect(removal.prompt.hasPrefix("Remove 5 jobs? "), "every job but the running one: \(removal.prompt)")
        #expect(model.handle(.character("n")).isEmpty)
        #expect(model.notice == "no job changed")
    }

    @Test func storeJobsSortByRetriesLargestFirst() {
        var model = Self.store
        for _ in 0..<4 { _ = model.handle(.character(">")) }
        _ = model.handle(.character("i"))
        #expect(model.notice == "jobs sorted by retries, largest first")
        #expect(model.tab(StoreTab.self)?.visibleRows.map(\.retries) == [5, 2, 0, 0, 0, 0])
        #expect(Self.screen(model).contains("retries▼"))
    }

    @Test func aSortIsRememberedAndRestoredThroughThePreferencesFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prefs-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = PreferencesFile(path: folder.appendingPathComponent("config.toml").path)
        var keeper = PreferenceKeeper(file: file, preferences: Preferences())
        #expect(keeper.remember { $0.sorts["flows"] = SavedSort(column: "elapsed", ascending: false) } == nil)
        #expect(keeper.remember { $0.sorts["stored-jobs"] = SavedSort(column: "kind", ascending: true) } == nil)
        let read = try file.load(.dashboard)
        #expect(read.sorts == ["flows": SavedSort(column: "elapsed", ascending: false), "stored-jobs": SavedSort(column: "kind", ascending: true)])
    }

    // MARK: - Fixtures

    /// Four flows: a completed import, a failed one (HTTP 409), a running report, a failed read.
    static var flows: DashboardModel {
        struct Conflict: Error, CustomStringConvertible { var description: String { "HTTP 409" } }
        struct Bounce: Error, CustomStringConvertible { var description: String { "mailbox full" } }
        return Fixture.model([
            .flowQueued(Fixture.info(1, "Import books")), .statusChanged(FlowID(1), .completed),
            .flowQueued(Fixture.info(2, "Import covers")), .statusChanged(FlowID(2), .failed(Conflict())),
            .flowQueued(Fixture.info(3, "Build report")), .statusChanged(FlowID(3), .running),
            .flowQueued(Fixture.info(4, "Send mail", .read)), .statusChanged(FlowID(4), .failed(Bounce())),
        ])
    }

    /// Six stored jobs of two kinds, shown: two failed send-email, one failed resize, one
    /// running, two pending.
    static var store: DashboardModel {
        func job(_ id: Int64, _ kind: String, _ state: StoredJobRow.State, retries: Int = 0) -> StoredJobRow {
            StoredJobRow(
                id: .init(id), kind: kind, state: state, retries: retries, dueAt: nil, leaseOwner: state == .running ? "host:1" : nil,
                lastError: state == .failed ? "boom" : nil, isRecovery: false, payload: "{}")
        }
        var model = DashboardModel(scenario: "jobs")
        model.add(StoreTab(name: "jobs.sqlite"))
        let rows = [
            job(1, "send-email", .pending), job(2, "resize", .running), job(3, "resize", .failed, retries: 2),
            job(4, "send-email", .failed, retries: 5), job(5, "resize", .pending), job(6, "send-email", .failed),
        ]
        model.updateStore(JobsViewModelTests.listing(rows), listedAt: JobsViewModelTests.listedAt, time: .seconds(1))
        _ = model.handle(.tab)
        return model
    }

    /// Types `keys` as keys: `\n` is Enter, DEL is Backspace.
    func type(_ keys: String, into model: inout DashboardModel) {
        for character in keys {
            switch character {
            case "\n": _ = model.handle(.enter)
            case "\u{7f}": _ = model.handle(.backspace)
            default: _ = model.handle(.character(character))
            }
        }
    }

    /// The screen as text, 120 × 30.
    static func screen(_ model: DashboardModel) -> String {
        DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 120, height: 30)).text
    }
}
