//===- CrashWatchdog.cpp - A crash of ir-run ends, always -----------------===//
//
// The handlers make only async-signal-safe calls (sigaction, timer_settime,
// raise, write, sigprocmask). The timer is a POSIX timer with a real-time
// signal of its own, created up front: alarm() would not do, because LLVM's
// stack printer arms and then cancels the process's one alarm itself.
//
//===----------------------------------------------------------------------===//

#include "CrashWatchdog.h"

#include <csignal>
#include <cstring>
#include <ctime>
#include <iterator>
#include <unistd.h>

namespace {

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
struct sigaction gPrevious[std::size(kFatalSignals)];
unsigned gSeconds = 0;
timer_t gTimer;
bool gHaveTimer = false;
volatile sig_atomic_t gCrashSignal = 0;

/// The timer rang while the crash handler still ran: die of the crash.
void onTimeout(int) {
  const char message[] = "ir-run: the crash handler did not finish; "
                         "exiting\n";
  (void)!write(STDERR_FILENO, message, sizeof message - 1);
  int sig = gCrashSignal;
  std::signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
  raise(sig);
  _exit(128 + sig);
}

void onFatalSignal(int sig, siginfo_t *info, void *context) {
  if (!gCrashSignal && gHaveTimer) {
    gCrashSignal = sig;
    struct itimerspec when;
    std::memset(&when, 0, sizeof when);
    when.it_value.tv_sec = gSeconds;
    timer_settime(gTimer, 0, &when, nullptr);
  }
  for (size_t i = 0; i < std::size(kFatalSignals); ++i) {
    if (kFatalSignals[i] != sig)
      continue;
    const struct sigaction &previous = gPrevious[i];
    // The previous handler is LLVM's, which restores the default action
    // and returns, so that the fault happens again and kills the process.
    if (previous.sa_flags & SA_SIGINFO) {
      previous.sa_sigaction(sig, info, context);
      return;
    }
    if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
      previous.sa_handler(sig);
      return;
    }
  }
  std::signal(sig, SIG_DFL);
  raise(sig);
}

} // namespace

void adjoint::irrun::installCrashWatchdog(unsigned seconds) {
  gSeconds = seconds;
  // A real-time signal that neither glibc (the first two) nor LLVM uses.
  int timeoutSignal = SIGRTMIN + 4;
  struct sigaction onTime;
  std::memset(&onTime, 0, sizeof onTime);
  onTime.sa_handler = onTimeout;
  sigemptyset(&onTime.sa_mask);
  sigaction(timeoutSignal, &onTime, nullptr);
  struct sigevent event;
  std::memset(&event, 0, sizeof event);
  event.sigev_notify = SIGEV_SIGNAL;
  event.sigev_signo = timeoutSignal;
  gHaveTimer = timer_create(CLOCK_MONOTONIC, &event, &gTimer) == 0;
  for (size_t i = 0; i < std::size(kFatalSignals); ++i) {
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_sigaction = onFatalSignal;
    // On the alternate stack LLVM set up (a stack overflow leaves no
    // room on the normal one); not deferred, as LLVM's own handler.
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    sigaction(kFatalSignals[i], &action, &gPrevious[i]);
  }
}
