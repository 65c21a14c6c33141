import Testing
@testable import TOMLSource

/// The locator that turns a document path into a line and column.
@Suite struct SourceMapTests {
    private func path(_ components: TOMLPath.Component...) -> TOMLPath {
        components.reduce(TOMLPath.root) { path, component in
            switch component {
            case .key(let key): path.appending(key)
            case .index(let index): path.appending(index: index)
            }
        }
    }

    @Test func arrayOfTablesHeadersCountTheirElements() {
        let map = SourceMap(text: """
        [[flow]]
        title = "a"
        [[flow.step]]
        task = "one"
        [[flow]]
        title = "b"
        [[flow.step]]
        task = "two"
          [[flow.step]]
          task = "three"
        """)
        #expect(map.keyPosition(of: path(.key("flow"), .index(1))) == SourcePosition(line: 5, column: 1))
        #expect(map.keyPosition(of: path(.key("flow"), .index(1), .key("title"))) == SourcePosition(line: 6, column: 1))
        #expect(map.keyPosition(of: path(.key("flow"), .index(1), .key("step"), .index(1), .key("task")))
            == SourcePosition(line: 10, column: 3))
    }

    @Test func nestedArrayOfTablesUnderTheLatestElements() {
        let map = SourceMap(text: """
        [[flow]]
        [[flow.step]]
        sequence = "s"
        [[flow.step.steps]]
        task = "a"
        [[flow.step.steps]]
        task = "b"
        """)
        #expect(map.keyPosition(of: path(.key("flow"), .index(0), .key("step"), .index(0), .key("steps"), .index(1), .key("task")))
            == SourcePosition(line: 7, column: 1))
    }

    @Test func inlineTablesInMultiLineArraysWithComments() {
        let map = SourceMap(text: """
        steps = [ # the uploads
          { task = "a", duration = "1s" },  # first
          { task = "b", fail_at = 2 },
        ]
        """)
        #expect(map.keyPosition(of: path(.key("steps"), .index(1))) == SourcePosition(line: 3, column: 3))
        #expect(map.keyPosition(of: path(.key("steps"), .index(1), .key("fail_at"))) == SourcePosition(line: 3, column: 17))
        #expect(map.valuePosition(of: path(.key("steps"), .index(1), .key("fail_at"))) == SourcePosition(line: 3, column: 27))
    }

    @Test func stringsHidingStructureAreSkipped() {
        let map = SourceMap(text: """
        a = "# not a comment, [not] {a table} = \\" still"
        b = '''
        [[not.a.header]]
        c = 1 '''
        d = \"\"\"x\"\"\"
        e = 1
        """)
        #expect(map.keyPosition(of: path(.key("e"))) == SourcePosition(line: 6, column: 1))
        #expect(map.keyPosition(of: path(.key("not"))) == SourcePosition.start)
        #expect(map.keyPosition(of: path(.key("c"))) == SourcePosition.start)
    }

    @Test func dottedAndQuotedKeys() {
        let map = SourceMap(text: """
        [flow]
        repeat.every = "1s"
        "odd key".x = 2
        """)
        #expect(map.keyPosition(of: path(.key("flow"), .key("repeat"), .key("every"))) == SourcePosition(line: 2, column: 8))
        #expect(map.keyPosition(of: path(.key("flow"), .key("odd key"), .key("x"))) == SourcePosition(line: 3, column: 11))
    }

    @Test func missingKeysFallBackToTheEnclosingTable() {
        let map = SourceMap(text: "name = \"x\"\n\n  [[flow]]\n  title = \"t\"\n")
        #expect(map.keyPosition(of: path(.key("flow"), .index(0), .key("step"))) == SourcePosition(line: 3, column: 3))
        #expect(map.keyPosition(of: path(.key("nothing"))) == SourcePosition.start)
    }

    @Test func brokenTextNeverHangs() {
        let map = SourceMap(text: "[[flow\n= = {\n\"unterminated\n[")
        #expect(map.keyPosition(of: path(.key("x"))) == SourcePosition.start)
    }

    @Test func aByteOrderMarkTakesNoColumn() {
        let map = SourceMap(text: "\u{FEFF}name = \"x\"\nseed = 1\n")
        #expect(map.valuePosition(of: path(.key("name"))) == SourcePosition(line: 1, column: 8))
        #expect(map.valuePosition(of: path(.key("seed"))) == SourcePosition(line: 2, column: 8))
    }
}
