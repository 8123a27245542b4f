//===- CrashWatchdog.h - A crash of ir-run ends, always ---------*- C++ -*-===//
//
// LLVM's crash handler (installed by llvm::InitLLVM) prints a symbolized
// stack trace, which allocates. When the crash happened inside malloc (a
// stack overflow in compiled code that was allocating, say), the handler
// waits forever for the allocator's lock, and the process hangs instead of
// dying. The watchdog goes in front of LLVM's handler: it arms a timer and
// then hands over, and if the trace is not done when the timer rings the
// process dies of the original signal.
//
//===----------------------------------------------------------------------===//

#ifndef ADJOINT_TOOLS_IR_RUN_CRASHWATCHDOG_H
#define ADJOINT_TOOLS_IR_RUN_CRASHWATCHDOG_H

namespace adjoint::irrun {

/// Wraps the handlers already installed for the fatal signals (call it
/// after llvm::InitLLVM): a crash ends within `seconds`.
void installCrashWatchdog(unsigned seconds);

} // namespace adjoint::irrun

#endif // ADJOINT_TOOLS_IR_RUN_CRASHWATCHDOG_H
