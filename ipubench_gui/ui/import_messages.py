"""What the app says when a file cannot be imported: the store's message says
what is wrong (store/user/import_csv.py, import_read.py); the advice here says what
to do about it. Declared in one place so they can be reviewed and tested."""

from __future__ import annotations

# (a phrase of the store's message, what to do), first match wins.
ADVICE: tuple[tuple[str, str], ...] = (
    (
        "is never closed",
        "Close the quotation mark on that line, or remove the stray one, in a "
        "text editor; then import the file again.",
    ),
    (
        "binary data",
        "Choose a results file saved as text (CSV or TSV), Parquet or JSON; "
        "this one is not.",
    ),
    (
        "not a Parquet file",
        "Choose a real Parquet file, or save the results as CSV and import that.",
    ),
    (
        "not valid JSON",
        "Fix the JSON where it is named (a JSON validator shows the place), or "
        "save the results as CSV and import that.",
    ),
    (
        "in the header",
        "Give every line as many cells as the header; a value that holds the "
        "delimiter needs quotation marks around it.",
    ),
    (
        "no line break",
        "Choose a CSV file with one result per line, or a Parquet or JSON file.",
    ),
    (
        "does not exist",
        "Check the file's name and folder, and choose it again.",
    ),
    (
        "no such file",
        "Check the file's name and folder (was it moved?), and choose it again.",
    ),
    (
        "Permission denied",
        "Copy the file to a folder of yours, or ask for permission to read it.",
    ),
)
DEFAULT = (
    "Open the file in a text editor or spreadsheet, fix what is named above, "
    "and import it again."
)
NOTHING_STORED = "Nothing was imported."


def explain(message: str) -> tuple[str, str]:
    """(what is wrong, what to do) for a store message. A message that already
    says what to do after a dash ("not utf-8 text — choose an encoding") keeps
    its own advice."""
    what = message.strip()
    head, dash, tail = what.partition(" — ")
    if dash and tail:
        return head, tail[0].upper() + tail[1:] + "."
    for phrase, todo in ADVICE:
        if phrase.lower() in what.lower():
            return what, todo
    return what, DEFAULT
