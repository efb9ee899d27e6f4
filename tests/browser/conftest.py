"""Browser tests: Playwright for Python driving Debian's Chromium against
pytest-django's live server. `playwright install` cannot download here, so the
browser is /usr/bin/chromium (`.ci/run` installs it). Without it the tests
skip on a developer's machine and FAIL in CI (CI=true)."""

import json
import os
import pathlib

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ROOT = pathlib.Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _require(path: pathlib.Path, how: str) -> None:
    if path.exists():
        return
    message = f"Browser tests need {path}: {how} (.ci/run does it)."
    if _in_ci():
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(autouse=True)
def _need_axe():
    _require(AXE, "`npm ci` installs axe-core from package.json")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    # Checked here, before Playwright tries to launch it.
    _require(pathlib.Path(CHROMIUM), "`apt-get install chromium`")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def shoot(artifacts, request):
    """Save a full-page screenshot as test-artifacts/<test>-<nn>-<name>.png."""
    counter = {"n": 0}

    def shoot(page, name: str):
        counter["n"] += 1
        path = artifacts / f"{request.node.name}-{counter['n']:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return shoot


DOCS_IMG = ROOT / "docs" / "img"


def optimise_png(path: pathlib.Path) -> None:
    """A screenshot as a 256-colour palette PNG, without dithering (text stays
    sharp): a third to a fifth of the size."""
    from PIL import Image

    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


@pytest.fixture
def picture(artifacts):
    """A picture for the guides (docs/*.md): the whole page, or the element
    `selector` finds, optimised. With DOCS_PICTURES=1 it is written to
    docs/img/NAME.png (commit it), otherwise to test-artifacts/docs-img/."""
    folder = DOCS_IMG if os.environ.get("DOCS_PICTURES") else artifacts / "docs-img"
    folder.mkdir(exist_ok=True)

    def picture(page, name: str, selector: str | None = None) -> pathlib.Path:
        path = folder / f"{name}.png"
        if selector:
            page.locator(selector).first.screenshot(path=str(path))
        else:
            page.screenshot(path=str(path), full_page=True)
        optimise_png(path)
        return path

    return picture


@pytest.fixture
def axe_context(browser):
    """A context that ignores the page CSP so axe-core can be injected; the
    pages under test are checked for CSP errors in the ordinary context."""
    context = browser.new_context(bypass_csp=True)
    yield context
    context.close()


def axe_violations(page, url: str) -> list[dict]:
    """Serious or critical axe-core violations (WCAG 2.0/2.1 A and AA) of `url`."""
    page.goto(url)
    return axe_check(page)


def axe_check(page) -> list[dict]:
    """Serious or critical axe-core violations of the page as it is loaded
    (the context must bypass the page's CSP: `axe_context`)."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """async () => await axe.run(document, {runOnly: {type: 'tag',
              values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})"""
    )
    bad = [v for v in result["violations"] if v["impact"] in ("serious", "critical")]
    if bad:
        ARTIFACTS.mkdir(exist_ok=True)  # a run of one test (-k) has not made it yet
        (ARTIFACTS / "axe-violations.json").write_text(json.dumps(bad, indent=2))
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"], "targets": [n["target"] for n in v["nodes"]][:5]}
        for v in bad
    ]
