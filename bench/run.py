"""Run every benchmark in bench/ (each `bench/bench_*.py` is a script with a `main()`)."""

import importlib.util
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

for script in sorted(HERE.glob("bench_*.py")):
    spec = importlib.util.spec_from_file_location(script.stem, script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    print(f"== {script.name}")
    module.main()
