"""DuckDB store of results: schema, build from data/, queries. No Qt here."""
