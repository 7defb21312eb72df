"""docs/admins/metrics.md's table of metrics is what /metrics serves: every metric with its
name, type and labels (and the values of a label where the page names them), and nothing the
page leaves out."""

import re
from pathlib import Path

from bot.cluster.metrics import Metrics

PAGE = Path(__file__).resolve().parents[2] / "docs" / "admins" / "metrics.md"
ROW = re.compile(r"^\| `(?P<name>ofc_\w+)` \| (?P<type>\w+) \|(?P<labels>[^|]*)\|")
LABEL = re.compile(r"`(?P<label>\w+)`(?:: (?P<values>[\w ,]+))?")


def documented() -> dict[str, tuple[str, dict[str, set[str]]]]:
    """Each metric of the page's table: its type and labels, with the values named."""
    found = {}
    for line in PAGE.read_text().splitlines():
        if (row := ROW.match(line)) is not None:
            labels = {m["label"]: set(filter(None, (m["values"] or "").replace(" ", "")
                                             .split(",")))
                      for m in LABEL.finditer(row["labels"])}
            found[row["name"]] = (row["type"], labels)
    return found


def served() -> dict[str, tuple[str, dict[str, set[str]]]]:
    """Each metric of a process's registry, named as /metrics names its samples."""
    metrics = Metrics()
    metrics.shard_owned.labels("0")  # the bot adds one series per shard it runs
    found = {}
    for family in metrics.registry.collect():
        name = family.name + ("_total" if family.type == "counter" else "")
        labels: dict[str, set[str]] = {}
        for sample in family.samples:
            for label, value in sample.labels.items():
                if label != "le":
                    labels.setdefault(label, set()).add(value)
        found[name] = (family.type, labels)
    return found


def test_the_page_lists_every_metric_with_its_type_and_labels() -> None:
    page, real = documented(), served()
    assert sorted(page) == sorted(real)
    for name, (kind, labels) in page.items():
        assert kind == real[name][0], name
        assert set(labels) == set(real[name][1]), name
        for label, values in labels.items():
            if values:  # the page names them all
                assert values == real[name][1][label], (name, label)
