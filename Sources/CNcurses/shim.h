#ifndef TASKFLOW_CNCURSES_SHIM_H
#define TASKFLOW_CNCURSES_SHIM_H

// Wide-character ncurses: these must be defined before curses.h so that wget_wch,
// mvwaddnwstr and cchar_t are declared.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <locale.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <langinfo.h>
#include <pthread.h>
#include <string.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// Swift 6 rejects ncurses' mutable globals (stdscr, LINES, COLS, COLORS) as not
// concurrency-safe, and function-like macros (COLOR_PAIR, getmaxyx) and the A_* constants
// built from macros do not import. These accessors expose them as plain functions.

static inline WINDOW *tf_stdscr(void) { return stdscr; }
static inline int tf_colors(void) { return COLORS; }
static inline int tf_color_pairs(void) { return COLOR_PAIRS; }

static inline int tf_maxy(WINDOW *window) { int y, x; getmaxyx(window, y, x); (void)x; return y; }
static inline int tf_maxx(WINDOW *window) { int y, x; getmaxyx(window, y, x); (void)y; return x; }

static inline attr_t tf_a_normal(void) { return A_NORMAL; }
static inline attr_t tf_a_bold(void) { return A_BOLD; }
static inline attr_t tf_a_reverse(void) { return A_REVERSE; }
static inline attr_t tf_a_underline(void) { return A_UNDERLINE; }
static inline attr_t tf_a_dim(void) { return A_DIM; }

static inline int tf_key_code_yes(void) { return KEY_CODE_YES; }
static inline int tf_key_resize(void) { return KEY_RESIZE; }
static inline int tf_key_up(void) { return KEY_UP; }
static inline int tf_key_down(void) { return KEY_DOWN; }
static inline int tf_key_ppage(void) { return KEY_PPAGE; }
static inline int tf_key_npage(void) { return KEY_NPAGE; }
static inline int tf_key_enter(void) { return KEY_ENTER; }
static inline int tf_key_backspace(void) { return KEY_BACKSPACE; }
static inline int tf_key_home(void) { return KEY_HOME; }
static inline int tf_key_end(void) { return KEY_END; }

/// Sets the attributes and colour pair used by the following writes to `window`.
static inline int tf_set_style(WINDOW *window, attr_t attributes, short pair) {
    return wattr_set(window, attributes, pair, NULL);
}

/// The terminal's size from the kernel (TIOCGWINSZ); 0 when it cannot be read.
static inline int tf_window_rows(int fd) { struct winsize size; return ioctl(fd, TIOCGWINSZ, &size) == 0 ? size.ws_row : 0; }
static inline int tf_window_cols(int fd) { struct winsize size; return ioctl(fd, TIOCGWINSZ, &size) == 0 ? size.ws_col : 0; }

/// Unblocks SIGWINCH in the calling thread. A parent may have started us with it blocked
/// (signal masks survive exec); ncurses then never learns of a resize.
static inline void tf_unblock_sigwinch(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGWINCH);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

/// True when the C library's character set after setlocale is UTF-8.
static inline int tf_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

/// What the crash handler below restores. Function-local statics, because Swift's importer
/// emits the bodies of a header's inline functions but not the header's global variables.
struct tf_crash_memory {
    struct termios modes;
    int modes_saved;
    struct sigaction previous[32];
};
static inline struct tf_crash_memory *tf_crash_memory(void) {
    static struct tf_crash_memory memory;
    return &memory;
}

/// On a crash (a Swift trap is SIGILL or SIGTRAP, a bad access SIGSEGV or SIGBUS, an abort
/// SIGABRT) Swift code cannot run, and without this the shell is left in raw mode on the
/// alternate screen. Only async-signal-safe calls: restore the saved modes, leave the alternate
/// screen, show the cursor; then hand the signal to the previous handler (Swift's backtracer)
/// or the default action, so the crash is still reported and the exit status still tells.
static inline void tf_crash_handler(int signal_number) {
    struct tf_crash_memory *memory = tf_crash_memory();
    if (memory->modes_saved) tcsetattr(STDIN_FILENO, TCSANOW, &memory->modes);
    static const char reset[] = "\033[0m\033[?25h\033[?1049l\r\n";
    ssize_t ignored = write(STDOUT_FILENO, reset, sizeof reset - 1);
    (void)ignored;
    sigaction(signal_number, &memory->previous[signal_number], NULL);
    raise(signal_number);
}

/// Saves the terminal's modes and installs ``tf_crash_handler`` for the crash signals. Call
/// once, before ncurses changes the modes.
static inline void tf_restore_terminal_on_crash(void) {
    struct tf_crash_memory *memory = tf_crash_memory();
    memory->modes_saved = tcgetattr(STDIN_FILENO, &memory->modes) == 0;
    const int signals[] = { SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE };
    for (unsigned index = 0; index < sizeof signals / sizeof signals[0]; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = tf_crash_handler;
        sigemptyset(&action.sa_mask);
        sigaction(signals[index], &action, &memory->previous[signals[index]]);
    }
}

#endif
