#ifndef TASKFLOW_SIGNAL_RECORDER_H
#define TASKFLOW_SIGNAL_RECORDER_H

#include <signal.h>

/// Installs the recording handler for `number` (with SA_RESTART) and stores the disposition it
/// replaces in `old`. The handler only stores into atomics: no Swift runtime, no lock, no
/// `errno` change — nothing that could deadlock or misbehave inside a signal. Returns 0, or -1
/// with `errno` set.
int tf_record_signal(int number, struct sigaction *old);

/// Installs the recording handler for SIGTSTP unless the disposition found ignores the signal
/// (a parent that left it ignored: it stays so). Returns 1 when installed, with the disposition
/// replaced in `old`; 0 when left ignored; -1 with `errno` set on failure.
int tf_record_suspend_signal(struct sigaction *old);

/// The first signal recorded other than SIGTSTP since the last reset, or 0.
int tf_first_signal(void);

/// Whether SIGTSTP (Ctrl-Z) was recorded since the last call; clears it.
int tf_take_suspend(void);

/// Forgets the first signal recorded (a new watcher starts clean). A SIGTSTP recorded and not
/// yet taken is kept: the terminal screen records it from before the loop's watcher exists, and
/// the loop then suspends at its first turn.
void tf_reset_signals(void);

#endif
