#include "signal_recorder.h"

#include <stdatomic.h>
#include <string.h>

static _Atomic int first_signal = 0;
static _Atomic int suspend_requested = 0;

static void record(int number) {
    if (number == SIGTSTP) {
        atomic_store_explicit(&suspend_requested, 1, memory_order_relaxed);
        return;
    }
    int none = 0;
    atomic_compare_exchange_strong_explicit(&first_signal, &none, number, memory_order_relaxed, memory_order_relaxed);
}

int tf_record_signal(int number, struct sigaction *old) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = record;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    return sigaction(number, &action, old);
}

int tf_record_suspend_signal(struct sigaction *old) {
    if (sigaction(SIGTSTP, NULL, old) != 0) return -1;
    if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler == SIG_IGN) return 0;
    return tf_record_signal(SIGTSTP, old) == 0 ? 1 : -1;
}

int tf_first_signal(void) {
    return atomic_load_explicit(&first_signal, memory_order_relaxed);
}

int tf_take_suspend(void) {
    return atomic_exchange_explicit(&suspend_requested, 0, memory_order_relaxed);
}

void tf_reset_signals(void) {
    atomic_store_explicit(&first_signal, 0, memory_order_relaxed);
}
