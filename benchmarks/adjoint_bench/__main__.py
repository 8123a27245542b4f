"""`python3 -m adjoint_bench` (with benchmarks/ on PYTHONPATH)."""

import sys

from .cli import main

sys.exit(main())
