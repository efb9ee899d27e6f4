"""Run every benchmark script in bench/ (`make bench`), one after the other.

Each script measures its own baseline in the same run and prints its figures;
record them in docs/benchmarks.md.
"""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    failed = 0
    for script in sorted(HERE.glob("*.py")):
        if script.name == "run.py":
            continue
        print(f"== {script.name}", flush=True)
        failed |= subprocess.call([sys.executable, str(script), *sys.argv[1:]])
    sys.exit(failed)
