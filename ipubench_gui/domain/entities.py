"""One name for one thing: canonical models, frameworks, datasets, systems,
accelerators and units, and every other spelling that means them.

The tables live in ``data/entities/`` (see data/README.md): one CSV per kind of
entity, each row naming where the name comes from, plus ``aliases.csv`` (kind,
alias, canonical, source). This module only reads them; it knows nothing of
Qt or DuckDB. A name is looked up by its *key* (case, spaces, hyphens and
other punctuation ignored, ``+`` and ``.`` kept), so "ResNet-50v1.5",
"resnet 50 v1.5" and "ResNet-50 v1.5" are one name. A name that no table
knows is kept as given and marked "not recognised". User aliases (saved in
the user's database) are layered on top with :meth:`Catalogue.with_aliases`.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import TypeVar

# kind -> (file, key column)
TABLES: dict[str, tuple[str, str]] = {
    "model": ("models.csv", "model"),
    "framework": ("frameworks.csv", "framework"),
    "dataset": ("datasets.csv", "dataset"),
    "system": ("systems.csv", "system"),
    "accelerator": ("accelerators.csv", "accelerator"),
    "unit": ("units.csv", "unit"),
}
KINDS: tuple[str, ...] = tuple(TABLES)
ALIASES_FILE = "aliases.csv"

# How a name was resolved.
CANONICAL, ALIAS, USER_ALIAS, UNKNOWN = (
    "canonical",
    "alias",
    "user alias",
    "not recognised",
)
# A framework text that is no spelling of one framework but names its family
# ("NGC PyTorch 21.05"), or names several ("NGC MXNet 22.04 , NGC PyTorch 22.04").
FAMILY = "family named in the text"
#: The framework family of a text naming frameworks of more than one family.
SEVERAL = "several"
# Graphcore's files name the SDK beside the framework ("TensorFlow 1.15 Poplar
# SDK 2.5.1"): the SDK is not a second framework.
POPLAR_SDK = re.compile(r"poplar\s+sdk\s*v?(\d+(?:\.\d+)+)", re.IGNORECASE)
_RUN = 3  # longest framework name, in words ("TF2 w/Keras")
# Throughput units whose item is "whatever the model counts" (models.csv item).
GENERIC_ITEMS = frozenset({"items", "samples"})


class EntityError(ValueError):
    """An entity table is inconsistent, or a user alias cannot be accepted."""


def key(name: str) -> str:
    """The lookup key of a name: case-folded letters, digits, ``+`` and ``.``."""
    return "".join(c for c in name.casefold() if c.isalnum() or c in "+.")


def letters_digits(name: str) -> str:
    """Letters and digits only, case-folded (the strictest comparison)."""
    return "".join(c for c in name.casefold() if c.isalnum())


@dataclass(frozen=True)
class Entity:
    """One canonical thing: its name, its table's other columns and provenance."""

    kind: str
    name: str
    attrs: Mapping[str, str | None]
    source: str = ""

    def get(self, column: str) -> str | None:
        return self.attrs.get(column)


@dataclass(frozen=True)
class Resolution:
    """What a name given by a source resolves to.

    ``name`` is the canonical name, or the given text when not recognised.
    """

    kind: str
    given: str | None
    name: str | None
    how: str
    source: str = ""

    @property
    def recognised(self) -> bool:
        return self.how in (CANONICAL, ALIAS, USER_ALIAS, FAMILY)

    @property
    def label(self) -> str:
        """For previews: "ResNet50 → ResNet-50 v1.5 (alias)", "X (not recognised)"."""
        if self.given is None:
            return ""
        if self.how == UNKNOWN:
            return f"{self.given} (not recognised)"
        if self.given == self.name:
            return self.given
        return f"{self.given} → {self.name} ({self.how})"


_V = TypeVar("_V")


def _frozen(m: Mapping[str, Mapping[str, _V]]) -> Mapping[str, Mapping[str, _V]]:
    """A read-only copy, two levels deep."""
    return MappingProxyType({k: MappingProxyType(dict(v)) for k, v in m.items()})


@dataclass(frozen=True)
class _Alias:
    canonical: str
    source: str
    how: str


@dataclass(frozen=True)
class Catalogue:
    """Every kind's entities and the spellings that lead to them."""

    entities: Mapping[str, Mapping[str, Entity]]
    # kind -> alias as written -> what it means (canonical names not included)
    aliases: Mapping[str, Mapping[str, _Alias]] = field(repr=False)
    # kind -> key -> alias (canonical names included, how=CANONICAL)
    _index: Mapping[str, Mapping[str, _Alias]] = field(repr=False)
    # kind -> spelling as written -> canonical (for a lookup table in SQL)
    _spellings: Mapping[str, Mapping[str, str]] = field(repr=False)

    # ---- loading -------------------------------------------------------
    @classmethod
    def load(cls, folder: Path) -> Catalogue:
        """Read ``folder`` (``data/entities``); raise ``EntityError`` naming the
        file and line of anything inconsistent."""
        return cls.from_texts(read_texts(folder), folder)

    @classmethod
    def from_texts(cls, texts: Mapping[str, str], where: Path | str) -> Catalogue:
        """The catalogue of the tables' CSV texts (file name -> text)."""
        at = Path(where)
        entities: dict[str, dict[str, Entity]] = {}
        for kind, (fname, col) in TABLES.items():
            table: dict[str, Entity] = {}
            for line, row in _rows(texts, fname, at):
                name = row.pop(col) or ""
                if not name or name in table:
                    raise EntityError(
                        f"{at / fname}, line {line}: {col} "
                        + ("blank" if not name else f"{name!r} listed twice")
                    )
                source = row.pop("source", None) or ""
                table[name] = Entity(kind, name, MappingProxyType(row), source)
            entities[kind] = table
        cat = cls._build(entities, {k: {} for k in KINDS}, at)
        pairs = []
        for line, row in _rows(texts, ALIASES_FILE, at):
            kind, alias, canon = (row[c] or "" for c in ("kind", "alias", "canonical"))
            if kind not in TABLES or not alias or not canon:
                raise EntityError(
                    f"{at / ALIASES_FILE}, line {line}: need kind (one of "
                    f"{', '.join(KINDS)}), alias and canonical"
                )
            pairs.append((kind, alias, canon, row.get("source") or "", line))
        return cat._layer(pairs, ALIAS, at / ALIASES_FILE)

    @classmethod
    def _build(
        cls,
        entities: Mapping[str, Mapping[str, Entity]],
        aliases: Mapping[str, Mapping[str, _Alias]],
        where: Path | str,
    ) -> Catalogue:
        index: dict[str, dict[str, _Alias]] = {}
        spellings: dict[str, dict[str, str]] = {}
        for kind in KINDS:
            idx: dict[str, _Alias] = {}
            by_letters: dict[str, str] = {}
            for name, ent in entities[kind].items():
                other = by_letters.setdefault(letters_digits(name), name)
                if other != name:
                    raise EntityError(
                        f"{where}: {kind}s {other!r} and {name!r} differ only in "
                        "punctuation, spaces or case"
                    )
                idx[key(name)] = _Alias(name, ent.source, CANONICAL)
            spell = {n: n for n in entities[kind]}
            for text, al in aliases[kind].items():
                spell[text] = al.canonical
                idx.setdefault(key(text), al)
            index[kind], spellings[kind] = idx, spell
        return cls(
            _frozen(entities), _frozen(aliases), _frozen(index), _frozen(spellings)
        )

    def _layer(
        self,
        pairs: Iterable[tuple[str, str, str, str, int | None]],
        how: str,
        where: Path | str,
    ) -> Catalogue:
        aliases = {k: dict(v) for k, v in self.aliases.items()}
        for kind, alias, canon, source, line in pairs:
            at = f"{where}, line {line}" if line else str(where)
            if kind not in TABLES:
                raise EntityError(f"{at}: unknown kind {kind!r}")
            target = self._index[kind].get(key(canon))
            if target is None or (how == ALIAS and target.how != CANONICAL):
                raise EntityError(f"{at}: {canon!r} is not a known {kind}")
            canon, k = target.canonical, key(alias)
            hit = self._index[kind].get(k)
            if hit and hit.how == CANONICAL:
                if hit.canonical != canon:
                    raise EntityError(
                        f"{at}: {alias!r} is the {kind} {hit.canonical!r} itself"
                    )
                aliases[kind][alias] = _Alias(canon, source, how)
                continue  # another spelling of the name itself
            same = [t for t in aliases[kind] if key(t) == k]
            if how == ALIAS and any(aliases[kind][t].canonical != canon for t in same):
                raise EntityError(
                    f"{at}: {alias!r} already means "
                    f"{aliases[kind][same[0]].canonical!r}"
                )
            for t in same:  # a user alias replaces a bundled one
                if aliases[kind][t].canonical != canon:
                    del aliases[kind][t]
            aliases[kind][alias] = _Alias(canon, source, how)
        return self._build(self.entities, aliases, where)

    def with_aliases(
        self, pairs: Iterable[tuple[str, str, str]], source: str = "user alias"
    ) -> Catalogue:
        """A catalogue with user aliases ``(kind, alias, canonical)`` on top:
        they replace bundled aliases of the same spelling; a canonical name
        cannot be made to mean another entity (``EntityError``)."""
        return self._layer(
            [(k, a, c, source, None) for k, a, c in pairs], USER_ALIAS, source
        )

    # ---- lookups -------------------------------------------------------
    def resolve(self, kind: str, text: str | None) -> Resolution:
        """What ``text`` (a name as some source writes it) means."""
        if text is None or not text.strip():
            return Resolution(kind, text, None, UNKNOWN if text else "blank")
        hit = self._index[kind].get(key(text))
        if hit is None and kind == "framework":
            fams = self.families(text)
            if fams:
                fam = fams[0] if len(fams) == 1 else SEVERAL
                if fam in self.entities[kind]:
                    return Resolution(kind, text, fam, FAMILY)
        if hit is None:
            return Resolution(kind, text, text, UNKNOWN)
        how = hit.how
        if how == CANONICAL and text != hit.canonical:
            how = ALIAS  # another spelling of the canonical name itself
        return Resolution(kind, text, hit.canonical, how, hit.source)

    def canonical(self, kind: str, text: str | None) -> str | None:
        """The canonical name, or ``text`` itself when not recognised."""
        return self.resolve(kind, text).name

    def entity(self, kind: str, text: str | None) -> Entity | None:
        name = self.resolve(kind, text).name
        return self.entities[kind].get(name) if name else None

    def families(self, text: str | None) -> tuple[str, ...]:
        """Every framework family ``text`` names, in the order first named
        (an MLPerf system file's "NGC MXNet 22.04 , NGC PyTorch 22.04",
        "Lingvo-JAX", "PopART Poplar SDK 2.5.1"): a run of up to three
        words that is a spelling of a framework names its family."""
        words = re.split(r"[^0-9a-z+]+", POPLAR_SDK.sub(" ", text or "").casefold())
        words = [w for w in words if w]
        found: list[str] = []
        i = 0
        while i < len(words):
            for n in range(min(_RUN, len(words) - i), 0, -1):
                hit = self._index["framework"].get(key(" ".join(words[i : i + n])))
                if hit is not None:
                    ent = self.entities["framework"][hit.canonical]
                    fam = ent.get("family") or ent.name
                    if fam not in found:
                        found.append(fam)
                    i += n
                    break
            else:
                i += 1
        return tuple(found)

    def names(self, kind: str) -> tuple[str, ...]:
        return tuple(self.entities[kind])

    def spellings(self, kind: str) -> Mapping[str, str]:
        """Every spelling the tables list (canonical names too) -> canonical."""
        return self._spellings[kind]

    def matching(self, kind: str, text: str) -> tuple[str, ...]:
        """Canonical names one of whose spellings contains ``text`` (by key):
        a search for "rn50" or "resnet" finds ResNet-50 v1.5."""
        k = key(text)
        if not k:
            return ()
        found = {c for s, c in self._spellings[kind].items() if k in key(s)}
        return tuple(n for n in self.entities[kind] if n in found)

    # ---- quantities ----------------------------------------------------
    def item(self, model: str | None, unit: str | None) -> str | None:
        """What one counted thing is for a throughput in ``unit`` of ``model``:
        the unit's own item ("images" for images/s), else the model's
        ("items/s" of ResNet-50 v1.5 counts images); None when unknown."""
        u = self.entity("unit", unit)
        if u is None or u.get("quantity") != "throughput":
            return None
        own = u.get("item")
        if own and own not in GENERIC_ITEMS:
            return own
        m = self.entity("model", model)
        return (m.get("item") if m else None) or None

    def unit_family(self, model: str | None, unit: str | None) -> str | None:
        """``"time"`` for any time unit, ``"<item>/s"`` for a throughput, None
        when the unit (or a generic unit's model) is unknown."""
        u = self.entity("unit", unit)
        if u is None:
            return None
        if u.get("quantity") == "time":
            return "time"
        item = self.item(model, unit)
        return f"{item}/s" if item else None

    def convert(self, value: float, unit: str, to: str) -> float:
        """``value`` in ``unit`` expressed in ``to`` (ms↔s↔min↔h exactly)."""
        a, b = self.entity("unit", unit), self.entity("unit", to)
        if a is None or b is None:
            raise EntityError(f"unknown unit {unit if a is None else to!r}")
        if a.get("base_unit") != b.get("base_unit"):
            raise EntityError(f"cannot convert {unit} to {to}")
        return value * float(a.get("factor") or 1) / float(b.get("factor") or 1)

    def chips(self, system: str | None) -> int | None:
        """Accelerator chips in ``system`` (an IPU-M2000 holds 4), if known."""
        s = self.entity("system", system)
        n = s.get("chips") if s else None
        return int(n) if n else None


FILES: tuple[str, ...] = (*(f for f, _c in TABLES.values()), ALIASES_FILE)


def read_texts(folder: Path) -> dict[str, str]:
    """The text of every table file in ``folder``."""
    texts = {}
    for fname in FILES:
        try:
            texts[fname] = (folder / fname).read_text(encoding="utf-8")
        except OSError as exc:
            raise EntityError(f"{folder / fname}: cannot read ({exc})") from None
    return texts


def _rows(
    texts: Mapping[str, str], fname: str, where: Path
) -> Iterable[tuple[int, dict[str, str | None]]]:
    if fname not in texts:
        raise EntityError(f"{where / fname}: file is missing")
    reader = csv.DictReader(io.StringIO(texts[fname], newline=""))
    for row in reader:
        clean = {k: (v.strip() or None) if v else None for k, v in row.items()}
        yield reader.line_num, clean


@lru_cache(maxsize=4)
def load(folder: Path) -> Catalogue:
    """The catalogue of ``folder``, read once per process."""
    return Catalogue.load(folder)
