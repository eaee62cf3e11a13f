// SPDX-License-Identifier: Apache-2.0
#pragma once

// SIGINT and SIGTERM (and SIGUSR2, onDumpSignal) for the whole dromedary process: blocked in
// every thread (call blockStopSignals first thing in main) and taken by one thread of their
// own, so that they are honoured in every phase. While a command loads (or validates, evaluates, asks a server),
// a signal ends the process at once with exit code 128+N: nothing has started that a graceful
// stop would finish. Once `run` serves, the first signal asks for a graceful stop
// (waitForStopSignal returns it); a second one during that stop forces the exit (code 1).

#include <chrono>
#include <functional>

namespace dromedary::cli {

/// Blocks SIGINT and SIGTERM in the calling thread (and the threads it starts later) and starts
/// the thread that takes them. Call first thing in main, before any other thread starts.
void blockStopSignals();

/// The routes run: from now on a signal asks for a graceful stop.
void stopSignalsServing();

/// Waits up to `timeout` for a stop signal: its number, or 0 when none came.
int waitForStopSignal(std::chrono::milliseconds timeout);

/// The graceful stop began: from now on a signal forces the exit.
void stopSignalsStopping();

/// What SIGUSR2 does (on the signal thread), or nothing with an empty action; it never runs
/// after this returns with another. SIGUSR2 is taken by the same thread: ignored when unset.
void onDumpSignal(std::function<void()> action);

}  // namespace dromedary::cli
