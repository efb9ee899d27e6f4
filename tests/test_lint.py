"""The linter that CI runs (issue #12): `make lint` is ruff check and ruff
format --check over the whole tree, `.ci/run` runs it before the tests and
stops on its failure, and an unformatted file fails it."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUFF = str(Path(sys.executable).parent / "ruff")


def _ruff(*args, cwd=ROOT):
    return subprocess.run([RUFF, *args], cwd=cwd, capture_output=True, text=True, check=False)


def test_ci_runs_the_linter_before_the_tests_and_stops_when_it_fails():
    script = (ROOT / ".ci" / "run").read_text()
    assert "set -euo pipefail" in script
    assert script.index("\nmake lint") < script.index("\nmake test")
    lint = (ROOT / "Makefile").read_text().split("\nlint:", 1)[1].split("\n\n", 1)[0]
    assert "ruff check ." in lint and "ruff format --check ." in lint
    assert "ruff" in (ROOT / ".pre-commit-config.yaml").read_text()


def test_an_unformatted_file_fails_the_format_check(tmp_path):
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (tmp_path / "unformatted.py").write_text("x = {  'a':1 }\n")
    result = _ruff("format", "--check", ".", cwd=tmp_path)
    assert result.returncode != 0 and "unformatted.py" in result.stdout


def test_the_whole_tree_passes_the_linter():
    for args in (("check", "."), ("format", "--check", ".")):
        result = _ruff(*args)
        assert result.returncode == 0, result.stdout + result.stderr
