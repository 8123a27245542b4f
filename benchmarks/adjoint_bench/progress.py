"""What the parent shows while the runs go on: on a terminal a progress bar
with what each run is doing (`mlp/torch step 12/23`), fed by the
children's progress pipes (isolation.py); otherwise one line per finished
run on stderr, which is what a log or ctest keeps.
"""

import shutil
import sys
import threading
import time


class Progress:
    """A one-line progress bar on a terminal (stdout a TTY); else one line
    per finished run on stderr (nothing with --quiet). Thread-safe (the
    runs of --jobs)."""

    def __init__(self, total, quiet):
        self.total, self.done, self.quiet = total, 0, quiet
        self.tty = sys.stdout.isatty() and not quiet
        self.active = {}      # label -> what it is doing
        self.start = time.perf_counter()
        self.lock = threading.Lock()
        self.width = shutil.get_terminal_size((80, 20)).columns

    def begin(self, label):
        with self.lock:
            self.active[label] = "starting"
            self._draw()

    def callback(self, label):
        def on_step(phase, i, n):
            with self.lock:
                self.active[label] = ("compiling" if phase == "setup" or i == 0
                                      else "step %d/%d" % (i, n))
                self._draw()
        return on_step

    def end(self, label, run, unit):
        with self.lock:
            self.done += 1
            self.active.pop(label, None)
            if self.tty:
                self._draw()
            elif not self.quiet:
                s = run.get("summary")
                what = (run["status"] if not s else "ok, %.4g %s"
                        % (s["mean"], unit))
                print("adjoint-bench: %-24s %s (%.1f s)"
                      % (label, what, run.get("wall_s", 0)), file=sys.stderr,
                      flush=True)

    def _draw(self):
        if not self.tty:
            return
        bar_w = 24
        filled = int(bar_w * self.done / max(self.total, 1))
        doing = ", ".join("%s %s" % kv for kv in self.active.items())
        line = "[%s%s] %d/%d %s %ds" % (
            "#" * filled, "." * (bar_w - filled), self.done, self.total,
            doing, time.perf_counter() - self.start)
        sys.stdout.write("\r" + line[:self.width - 1].ljust(self.width - 1))
        sys.stdout.flush()

    def close(self):
        if self.tty:
            sys.stdout.write("\r" + " " * (self.width - 1) + "\r")
            sys.stdout.flush()
