"""Word lists are data: each list in a vocabulary file is read by the code, names fail loudly, the wheel ships them."""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from pathlib import Path

import pytest

from boundloop.domain import vocabulary as domain_vocabulary
from boundloop.domain.text import calendar_words
from boundloop.domain.vocabulary import Vocabulary
from boundloop.reasoners.offline import lists, referents
from boundloop.reasoners.offline import vocabulary as reader_vocabulary

ROOT = Path(__file__).resolve().parent.parent
VOCABULARIES = {"domain": domain_vocabulary.VOCABULARY, "reasoners": reader_vocabulary.VOCABULARY}


def _source(layer: str) -> str:
    # the loaders' own docstrings name lists as examples: they read none
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted((ROOT / layer).rglob("*.py"))
                     if path.name != "vocabulary.py")


@pytest.mark.parametrize("layer", sorted(VOCABULARIES))
def test_every_list_is_read_by_the_code_of_its_layer(layer):
    vocabulary = VOCABULARIES[layer]
    source = _source(layer)
    asked = set(re.findall(r"\b(?:words|phrases|stemmed)\(\"([a-z_]+)\"\)", source))
    assert vocabulary.names(), vocabulary.path
    assert set(vocabulary.names()) - asked == set()  # no dead list
    assert asked - set(vocabulary.names()) == set()  # no list asked for that the file lacks


@pytest.mark.parametrize("layer", sorted(VOCABULARIES))
def test_every_list_says_what_it_is_for_and_holds_each_word_once(layer):
    vocabulary = VOCABULARIES[layer]
    for name in vocabulary.names():
        items = vocabulary.phrases(name)
        assert items and len(set(items)) == len(items), name
        assert all(item == item.strip() and item for item in items), name
    data = json.loads(vocabulary.path.read_text(encoding="utf-8"))
    assert all(entry["about"].strip() and "\n" not in entry["about"] for entry in data["lists"].values())


def test_an_unknown_list_is_a_key_error_naming_the_file():
    with pytest.raises(KeyError, match=r"no word list 'nonsense' in vocabulary\.json"):
        reader_vocabulary.words("nonsense")
    with pytest.raises(KeyError, match=r"no word list 'nonsense' in vocabulary\.json"):
        domain_vocabulary.phrases("nonsense")


def test_a_list_reads_as_a_set_or_in_file_order(tmp_path):
    path = tmp_path / "vocabulary.json"
    path.write_text('{"about": "t", "lists": {"months": {"about": "m", "words": ["march", "april", "may"]}}}')
    vocabulary = Vocabulary(path)
    assert vocabulary.phrases("months") == ("march", "april", "may")
    assert vocabulary.words("months") == frozenset({"may", "april", "march"})


def test_the_code_reads_the_lists_as_they_are_in_the_file():
    assert referents.WH == reader_vocabulary.words("wh_words") and "whom" in referents.WH
    assert lists._MONTHS[0] == "january" and lists._MONTHS[-1] == "december" and len(lists._MONTHS) == 12
    assert calendar_words("Monday") and calendar_words("Q3")


def _packaged(relative: str, patterns: list[str]) -> bool:
    # setuptools' '**/' also matches no folder at all
    return any(fnmatch.fnmatch(relative, p) or (p.startswith("**/") and fnmatch.fnmatch(relative, p[3:]))
               for p in patterns)


def test_the_wheel_package_data_carries_the_vocabulary_files():
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    for vocabulary in VOCABULARIES.values():
        relative = vocabulary.path.resolve().relative_to(ROOT)  # e.g. reasoners/offline/vocabulary.json
        layer, rest = relative.parts[0], "/".join(relative.parts[1:])
        assert _packaged(rest, package_data.get(f"boundloop.{layer}", [])), relative
