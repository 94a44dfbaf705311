"""PySide6 widgets, models and state: the thin UI layer."""
