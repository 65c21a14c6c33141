import Glibc
import TOMLSource

/// How many terminal columns text takes, measured the way the terminal (and ncurses) measures
/// it: C's `wcwidth`, applied to each grapheme's first scalar. East Asian wide characters and
/// most emoji take two columns; combining marks take none. A character the grid shows as an
/// escape (``Swift/String/escapingControlCharacters``) takes the escape's columns.
enum DisplayWidth {
    private typealias WidthFunction = @convention(c) (wchar_t) -> Int32

    /// `wcwidth` looked up at run time: Swift's Glibc module leaves it out (glibc declares it
    /// only under `_XOPEN_SOURCE`), and this module cannot add C flags.
    private static let wcwidth: WidthFunction? = dlsym(nil, "wcwidth").map { symbol in
        // The symbol is glibc's `int wcwidth(wchar_t)`, whose C signature this type spells out.
        unsafeBitCast(symbol, to: WidthFunction.self)
    }

    /// The address of a `C.UTF-8` character-type locale, created once and never changed or
    /// freed. Widths must not depend on the process's locale (tests run in "C", where every
    /// non-ASCII character is unmeasurable), and every UTF-8 locale of glibc shares one width
    /// table, so measuring in C.UTF-8 agrees with what ncurses measures in the user's locale.
    /// Kept as an integer because Swift cannot prove a `locale_t` pointer `Sendable`; POSIX
    /// lets any number of threads install the same locale object with `uselocale`.
    private static let utf8Locale: Int? = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil).map { Int(bitPattern: $0) }

    /// Columns of one grapheme: 0 (a combining mark alone), 1 or 2, or as many as the escape
    /// the grid shows for a control or format character (`\u{202E}` takes 8); what `wcwidth`
    /// cannot measure counts as 1.
    static func columns(of character: Character) -> Int {
        guard !character.isEscapedWhenShown else { return String(character).escapingControlCharacters.displayWidth }
        // A Character holds at least one scalar.
        return columns(of: character.unicodeScalars[character.unicodeScalars.startIndex])
    }

    /// Columns of one scalar, as `wcwidth` gives them; unmeasurable ones count as 1.
    static func columns(of scalar: Unicode.Scalar) -> Int {
        let width = measure(wchar_t(bitPattern: scalar.value))
        return width < 0 ? 1 : width
    }

    /// `wcwidth` in C.UTF-8 when that locale exists, else in the process's locale.
    private static func measure(_ code: wchar_t) -> Int {
        guard let wcwidth else { return 1 }
        guard let locale = utf8Locale.flatMap(locale_t.init(bitPattern:)) else { return Int(wcwidth(code)) }
        // uselocale changes only the calling thread's locale, and is undone before returning.
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        return Int(wcwidth(code))
    }
}

extension String {
    /// Columns the string takes on the dashboard's grid, escapes included.
    package var displayWidth: Int {
        reduce(0) { $0 + DisplayWidth.columns(of: $1) }
    }
}
