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
#include <ncursesw/term.h>

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
static inline int tf_key_left(void) { return KEY_LEFT; }
static inline int tf_key_right(void) { return KEY_RIGHT; }
static inline int tf_key_ppage(void) { return KEY_PPAGE; }
static inline int tf_key_npage(void) { return KEY_NPAGE; }
static inline int tf_key_enter(void) { return KEY_ENTER; }
static inline int tf_key_backspace(void) { return KEY_BACKSPACE; }
static inline int tf_key_home(void) { return KEY_HOME; }
static inline int tf_key_end(void) { return KEY_END; }
static inline int tf_key_mouse(void) { return KEY_MOUSE; }

// The mouse events the dashboard asks for: the first button going down (a click: with
// mouseinterval(0) ncurses reports it at once instead of waiting to tell clicks from drags)
// and the wheel, which xterm-like terminals report as buttons 4 and 5 going down.
static inline mmask_t tf_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t tf_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t tf_wheel_up(void) { return BUTTON4_PRESSED; }
static inline mmask_t tf_wheel_down(void) { return BUTTON5_PRESSED; }
static inline mmask_t tf_dashboard_mouse_events(void) { return BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED; }

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

/// Takes the terminal's suspend character (Ctrl-Z, or whatever `stty susp` set) from the line
/// discipline, so that it reaches the program as a key instead of the terminal sending SIGTSTP:
/// the key stops the whole job from the loop, outside any signal handler (a Ctrl-Z typed during
/// a frame once did nothing, when ncurses ignored SIGTSTP while painting; see
/// `TerminalScreen`'s `recordSuspendSignal`). The change is
/// made ncurses' program mode (restored after each `fg`); endwin gives the shell its own modes,
/// suspend character included. Works on `fd`, where ncurses keeps the modes (its output).
/// Returns the character taken, or -1 when there is none to take: no suspend character, a
/// parent that left SIGTSTP ignored (Ctrl-Z must do nothing then, as before), or an error.
static inline int tf_take_suspend_character(int fd) {
    struct sigaction tstp;
    if (sigaction(SIGTSTP, NULL, &tstp) != 0) return -1;
    if (!(tstp.sa_flags & SA_SIGINFO) && tstp.sa_handler == SIG_IGN) return -1;
    struct termios modes;
    if (tcgetattr(fd, &modes) != 0) return -1;
    cc_t suspend = modes.c_cc[VSUSP];
    if (suspend == _POSIX_VDISABLE) return -1;
    modes.c_cc[VSUSP] = _POSIX_VDISABLE;
    if (tcsetattr(fd, TCSADRAIN, &modes) != 0) return -1;
    return def_prog_mode() == OK ? suspend : -1;
}

/// True when the C library's character set after setlocale is UTF-8.
static inline int tf_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

/// 1 when terminfo describes `name` and it can move the cursor to any cell (`cup`), 0 when it
/// cannot (`dumb`, hardcopy terminals: the dashboard would draw one garbled line), -1 when
/// terminfo does not know it. Writes nothing: with a status pointer setupterm reports in it.
static inline int tf_terminal_can_address_cursor(const char *name) {
    int status = 0;
    if (setupterm(name, STDOUT_FILENO, &status) != OK) return status == 1 ? 0 : -1;
    const char *cup = tigetstr("cup");
    int addressable = cup != NULL && cup != (const char *)-1;
    del_curterm(cur_term);
    return addressable;
}

/// What the fatal-signal handler below needs. Function-local statics, because Swift's importer
/// emits the bodies of a header's inline functions but not the header's global variables. Each
/// Swift file that calls these functions gets its own copy of them and of this memory: call them
/// from one Swift file only (DashboardTerminal's FatalSignals.swift).
struct tf_signal_memory {
    /// The terminal's modes before the dashboard changed them; valid while `terminal_saved`.
    struct termios modes;
    /// Set while a screen is up (accessed with __atomic builtins: a crash on another thread reads it).
    int terminal_saved;
    int installed;
    /// The dispositions found at install time: Swift's backtracer for the crash signals.
    struct sigaction previous[NSIG];
};
static inline struct tf_signal_memory *tf_signal_memory(void) {
    static struct tf_signal_memory memory;
    return &memory;
}

/// Swift code cannot run in a signal handler, so without this a crash or a signal the dashboard's
/// loop does not watch leaves the shell in raw mode on the alternate screen. Only
/// async-signal-safe calls: when a screen is up, restore the saved modes, leave the alternate
/// screen and show the cursor; then let the previous handler run (Swift's backtracer reports
/// a crash); then, as that handler returns for a signal sent with kill (no faulting
/// instruction runs again), end the process with the default action, so the shell sees the
/// signal in the exit status (128 + n) and the program never draws over a restored terminal.
static inline void tf_fatal_signal_handler(int number, siginfo_t *info, void *context) {
    struct tf_signal_memory *memory = tf_signal_memory();
    if (__atomic_exchange_n(&memory->terminal_saved, 0, __ATOMIC_ACQ_REL)) {
        tcsetattr(STDIN_FILENO, TCSANOW, &memory->modes);
        // Mouse reporting off too (1006: SGR coordinates, 1000: clicks), else the shell would
        // receive escape sequences for every click; harmless when it was never on.
        static const char reset[] = "\033[?1006l\033[?1000l\033[0m\033[?25h\033[?1049l\r\n";
        ssize_t ignored = write(STDOUT_FILENO, reset, sizeof reset - 1);
        (void)ignored;
    }
    struct sigaction *previous = &memory->previous[number];
    if (previous->sa_flags & SA_SIGINFO) {
        if (previous->sa_sigaction != NULL) previous->sa_sigaction(number, info, context);
    } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
        previous->sa_handler(number);
    }
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(number, &fallback, NULL);
    sigset_t blocked;
    sigemptyset(&blocked);
    sigaddset(&blocked, number);
    // The signal is blocked while its handler runs: unblocked, the raised one is delivered now.
    pthread_sigmask(SIG_UNBLOCK, &blocked, NULL);
    raise(number);
}

/// Installs ``tf_fatal_signal_handler`` for every signal that would end the process, except those
/// the parent left ignored (nohup's SIGHUP, a background job's SIGINT and SIGQUIT stay
/// ignored). Call on the main thread; calls after the first do nothing.
static inline void tf_install_fatal_signal_handlers(void) {
    struct tf_signal_memory *memory = tf_signal_memory();
    if (memory->installed) return;
    memory->installed = 1;
    // Every standard signal whose default action ends the process. SIGKILL and SIGSTOP cannot
    // be caught; the real-time signals belong to the C library.
    static const int fatal[] = {
        SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGUSR1, SIGSEGV, SIGUSR2,
        SIGPIPE, SIGALRM, SIGTERM, SIGSTKFLT, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGPOLL, SIGPWR, SIGSYS,
    };
    for (unsigned index = 0; index < sizeof fatal / sizeof fatal[0]; index++) {
        int number = fatal[index];
        struct sigaction *previous = &memory->previous[number];
        if (sigaction(number, NULL, previous) != 0) continue;
        if (!(previous->sa_flags & SA_SIGINFO) && previous->sa_handler == SIG_IGN) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = tf_fatal_signal_handler;
        // On the alternate stack Swift's runtime sets up, so a stack overflow is handled too.
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        sigaction(number, &action, NULL);
    }
}

/// Saves the terminal's modes for the handler to restore. Call before ncurses changes them.
static inline void tf_remember_terminal(void) {
    struct tf_signal_memory *memory = tf_signal_memory();
    if (tcgetattr(STDIN_FILENO, &memory->modes) == 0) {
        __atomic_store_n(&memory->terminal_saved, 1, __ATOMIC_RELEASE);
    }
}

/// The terminal is back as it was: a signal from now on has nothing to restore.
static inline void tf_forget_terminal(void) {
    __atomic_store_n(&tf_signal_memory()->terminal_saved, 0, __ATOMIC_RELEASE);
}

#endif
