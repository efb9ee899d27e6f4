"""Run every benchmark in bench/ (files named bench_*.py), one after another.

.venv/bin/python bench/run.py            # all of them
.venv/bin/python bench/run.py board      # those whose name contains "board"
"""

import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent


def main() -> int:
    wanted = sys.argv[1:]
    status = 0
    for script in sorted(HERE.glob("bench_*.py")):
        if wanted and not any(w in script.stem for w in wanted):
            continue
        print(f"== {script.name}", flush=True)
        status |= subprocess.call([sys.executable, str(script)], cwd=HERE.parent)
    return status


if __name__ == "__main__":
    sys.exit(main())
