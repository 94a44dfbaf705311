"""elide_words: labels shortened by whole words, never cut inside one."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ipubench_gui.domain.text import ELLIPSIS, elide_words

LABEL = "BERT-Large Ph1 Pre-Training Packed PopART"  # a vendor row's label


def test_a_label_that_fits_is_kept_whole():
    assert elide_words(LABEL, len(LABEL), len) == LABEL


def test_the_middle_goes_first_and_the_suffix_stays():
    assert elide_words(LABEL, 30, len) == "BERT-Large Ph1 … Packed PopART"
    assert elide_words(LABEL, 20, len) == "BERT-Large … PopART"
    assert elide_words(LABEL, 9, len) == "… PopART"


def test_right_elision_keeps_the_leading_words():
    assert elide_words(LABEL, 30, len, "right") == "BERT-Large Ph1 Pre-Training …"
    assert elide_words(LABEL, 12, len, "right") == "BERT-Large …"


def test_a_single_word_too_wide_is_cut_as_a_last_resort():
    assert elide_words("Pre-Training", 6, len) == "Pre-T…"
    assert elide_words(LABEL, 3, len) == "BE…"


def test_proportional_widths():
    """Widths need not be per character: a wide letter costs more."""

    def measure(s: str) -> int:
        return sum(3 if c in "MW" else 1 for c in s)

    # "MMM" costs 9: the head no longer fits beside the tail, the tail does
    assert elide_words("MMM aa bb", 8, measure) == "… aa bb"
    assert elide_words("MMM aa bb", 14, measure) == "MMM … bb"


_words = st.lists(
    st.text(alphabet="abcdefghPQ-()0123456789", min_size=1, max_size=9),
    min_size=1,
    max_size=8,
)


@given(
    _words, st.integers(min_value=1, max_value=60), st.sampled_from(["middle", "right"])
)
def test_kept_words_are_whole_and_the_result_fits(words, width, where):
    text = " ".join(words)
    out = elide_words(text, width, len, where)
    if out == text:
        assert len(text) <= width
        return
    assert out.endswith(ELLIPSIS) or ELLIPSIS in out
    pieces = [p for p in out.split(" ") if p != ELLIPSIS]
    if all(p in words for p in pieces):  # the word-boundary case
        assert len(out) <= width
        head, _, tail = out.partition(ELLIPSIS)
        assert text.startswith(head.strip())
        assert text.endswith(tail.strip())
        if where == "right":
            assert not tail.strip()
    elif len(words) == 1 or out.split(" ")[1:] != words[1:]:
        # only when no whole first (or last) word fits at all
        first_fits = len(words[0]) + 2 <= width
        last_fits = where == "middle" and len(words[-1]) + 2 <= width
        assert not first_fits and not last_fits
        assert len(out) <= max(width, 1)
    else:  # only the first word left out: a part of it is shown instead
        cut, _, rest = out.partition(" ")
        head, _, tail = cut.partition(ELLIPSIS)
        assert words[0].startswith(head) and words[0].endswith(tail)
        assert len(cut) >= 4 and rest == " ".join(words[1:]).strip()
        assert len(out) <= width


def test_a_name_of_one_word_is_cut_in_its_middle_not_to_its_count():
    """An MLPerf system id in a facet list keeps its start, its end and its
    count ("dgxa100_…_pytorch  (1)"), never "… (1)" alone."""
    name = "dgxa100_n8_ngc22.09_pytorch  (1)"
    assert elide_words(name, 22, len) == "dgxa100_…_pytorch  (1)"
    # too narrow for both ends: its first characters
    assert elide_words(name, 14, len) == "dgxa100_…  (1)"
    assert elide_words(name, 8, len) == "… (1)"  # nothing readable fits
    # on its own, as a table cell
    assert elide_words("dgxa100_n8_ngc22.09_pytorch", 20, len) == (
        "dgxa100_….09_pytorch"
    )


def test_a_labels_parts_go_whole_before_its_words():
    label = "EfficientNet-B4 · G16-EfficientNet · IPU-POD256 · TensorFlow 1 · bs 6,144"
    out = elide_words(label, 52, len, sep=" · ")
    assert out == "EfficientNet-B4 · … · TensorFlow 1 · bs 6,144"
    assert elide_words(label, 52, len) == (
        "EfficientNet-B4 · G16-EfficientNet · … 1 · bs 6,144"  # half a part
    )
    # no part fits: whole words, as without sep
    assert elide_words(label, 7, len, sep=" · ") == "… 6,144"


def test_columns_get_their_text_whole_when_it_fits_else_their_longest_word():
    from ipubench_gui.domain.text import share_widths

    full, least = [120, 480, 300], [40, 90, 70]
    # room for every text on one line: each gets it, the rest shared alike
    got = share_widths(full, least, 1800)
    assert all(g >= f for g, f in zip(got, full)) and sum(got) <= 1800
    assert got[1] / got[0] == full[1] / full[0]
    # too narrow for that: never below a column's longest word
    got = share_widths(full, least, 500)
    assert all(g >= w for g, w in zip(got, least)) and sum(got) <= 500
    assert got[1] > got[2] > got[0]  # the longer text, the wider
    # narrower than the words: the words, and the table scrolls
    assert share_widths(full, least, 100) == least


def test_parts_most_labels_share_go_first():
    from ipubench_gui.domain.text import elide_parts, part_sets

    names = [
        f"BERT-Large · accuracy 99% · {system} · TensorRT · Offline"
        for system in ("NVIDIA DGX H100", "Dell PowerEdge XE9680", "X640 G40")
    ]
    common = part_sets(names)
    width = len("BERT-Large · … · TensorRT · Offline")
    cut = [elide_parts(n, width, len, common) for n in names]
    # the systems, which tell the bars apart, kept; what all share left out
    assert all(n.split(" · ")[2] in c.split(" · ") for c, n in zip(cut, names))
    assert all(len(c) <= width and ELLIPSIS in c for c in cut)
    assert len(set(cut)) == 3
    # the old rule kept the shared ends and cut the system: three alike
    assert len({elide_words(n, width, len, sep=" · ") for n in names}) == 1


@given(
    st.lists(
        st.lists(st.sampled_from(["a", "bb", "ccc", "dddd", "ee ee"]), min_size=1),
        min_size=1,
        max_size=6,
    ),
    st.integers(min_value=1, max_value=40),
)
def test_elided_parts_fit_and_are_whole(labels, width):
    from ipubench_gui.domain.text import elide_parts, part_sets

    texts = [" · ".join(parts) for parts in labels]
    common = part_sets(texts)
    for t in texts:
        cut = elide_parts(t, width, len, common)
        if len(t) <= width:
            assert cut == t
        else:
            assert len(cut) <= width or len(cut.split()) == 1


def test_the_one_part_that_tells_a_label_apart_is_kept_even_cut():
    """A label told apart by one long word keeps that word's start, never
    falling back to the parts every label shares (which would read alike)."""
    from ipubench_gui.domain.text import elide_parts, part_sets

    labels = ["A · Supercalifragilisticexpialidocious · C", "A · Other · C"]
    among = part_sets(labels)
    out = elide_parts(labels[0], 20, len, among)
    assert len(out) <= 20 and "Supercal" in out
    assert out != elide_parts(labels[1], 20, len, among)
