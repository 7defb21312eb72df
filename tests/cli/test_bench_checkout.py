"""`ofc bench` runs its end-to-end figures from the source checkout: the path it looks in must
be the checkout's root, wherever the bench's modules sit in the package."""

from bot.cli.bench import e2e


def test_the_end_to_end_figures_find_the_checkout() -> None:
    assert (e2e.ROOT / "tests" / "e2e" / "load_run.py").is_file()
    assert (e2e.ROOT / "pyproject.toml").is_file()
