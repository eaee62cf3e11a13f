// SPDX-License-Identifier: Apache-2.0
#include "stop_signals.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <thread>

namespace dromedary::cli {

namespace {

enum class Phase { Loading, Serving, Stopping };

std::atomic<Phase> phase{Phase::Loading};
std::mutex mutex;
std::condition_variable arrived;
int requested = 0;  // under mutex
std::mutex dumpMutex;
std::function<void()> dump;  // under dumpMutex: what SIGUSR2 does

const char* name(int sig) { return sig == SIGINT ? "SIGINT" : "SIGTERM"; }

sigset_t stopSet() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGUSR2);
  return set;
}

[[noreturn]] void exitNow(int code, const char* why, int sig) {
  std::fflush(stdout);
  std::fprintf(stderr, "dromedary: %s %s\n", name(sig), why);
  std::fflush(stderr);
  ::_exit(code);
}

void takeSignals() {
  sigset_t set = stopSet();
  for (;;) {
    int sig = 0;
    if (sigwait(&set, &sig) != 0) continue;
    if (sig == SIGUSR2) {
      std::lock_guard lock(dumpMutex);
      if (dump) dump();
      continue;
    }
    switch (phase.load()) {
      case Phase::Loading:
        exitNow(128 + sig, "before the routes started: stopped", sig);
      case Phase::Stopping:
        exitNow(1, "during the graceful stop: forced, exchanges in flight are cut short", sig);
      case Phase::Serving: {
        std::lock_guard lock(mutex);
        if (requested == 0) requested = sig;
        arrived.notify_all();
        break;
      }
    }
  }
}

}  // namespace

void blockStopSignals() {
  sigset_t set = stopSet();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread(takeSignals).detach();
}

void stopSignalsServing() { phase.store(Phase::Serving); }

int waitForStopSignal(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex);
  arrived.wait_for(lock, timeout, [] { return requested != 0; });
  return requested;
}

void stopSignalsStopping() { phase.store(Phase::Stopping); }

void onDumpSignal(std::function<void()> action) {
  std::lock_guard lock(dumpMutex);
  dump = std::move(action);
}

}  // namespace dromedary::cli
