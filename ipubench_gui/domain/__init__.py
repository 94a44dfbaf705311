"""Pure-Python domain layer: no Qt, no DuckDB, no pyqtgraph."""
