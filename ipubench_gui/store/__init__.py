"""DuckDB store of results, no Qt. Here: the connection (db), the column
whitelist (schema) and the health of a DuckDB file; below, its parts:
``query`` (what the app asks), ``bundled`` (the store built from data/),
``user`` (the user's database and imports), ``mlperf`` (official MLPerf
results read from their logs) and ``export`` (results to files)."""
